import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { ENV_VARIABLES } from '../../src/server/env.ts';

// docker-compose.yml (docs/operations.md, "Running several nodes") holds what the operations page promises: PostgreSQL,
// MinIO, two web nodes that leave jobs to one worker, nginx in front, and only variables the site
// reads. Docker itself checks the file where it is installed with its compose plugin.

interface Service {
  image?: string;
  build?: string;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: unknown;
}

const compose = parse(fs.readFileSync('docker-compose.yml', 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
};
const { services } = compose;
const nodes = ['web-a', 'web-b', 'worker'] as const;

describe('docker-compose.yml', () => {
  test('runs PostgreSQL, MinIO, two web nodes, one worker and nginx', () => {
    expect(Object.keys(services)).toEqual(
      expect.arrayContaining(['postgres', 'minio', 'web-a', 'web-b', 'worker', 'nginx']),
    );
    expect(services['worker']?.command).toEqual(['npm', 'run', 'worker']);
    expect(fs.readFileSync('deploy/nginx.conf', 'utf8')).toMatch(/server web-a:4321;\s+server web-b:4321;/);
  });

  test('every node shares the database, the bucket and the secrets, in multi-node mode', () => {
    for (const name of nodes) {
      const environment = services[name]?.environment ?? {};
      expect(environment['MULTI_NODE'], name).toBe('true');
      expect(environment['DATABASE_URL'], name).toMatch(/^postgres:\/\/.+@postgres:5432\//);
      expect(environment['STORAGE_URL'], name).toMatch(/^s3:\/\//);
      expect(environment['DOWNLOAD_URL_SECRET'], name).toBeTruthy();
      expect(environment['TRUST_PROXY'], name).toBe('true');
    }
    expect(services['web-a']?.environment?.['TOOLS_RUN_JOBS']).toBe('false');
    expect(services['web-b']?.environment?.['TOOLS_RUN_JOBS']).toBe('false');
  });

  test('names only variables the site reads', () => {
    for (const name of nodes) {
      const unknown = Object.keys(services[name]?.environment ?? {}).filter((key) => !ENV_VARIABLES.includes(key));
      expect(unknown, name).toEqual([]);
    }
  });

  const docker = spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' });
  test.skipIf(docker.status !== 0)('passes `docker compose config` where Docker Compose is installed', () => {
    const checked = spawnSync('docker', ['compose', 'config', '--quiet'], { encoding: 'utf8' });
    expect(checked.stderr).toBe('');
    expect(checked.status).toBe(0);
  });
});
