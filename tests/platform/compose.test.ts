import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { ENV_VARIABLES } from '../../src/server/env.ts';

// docker-compose.yml (docs/operations.md, "Running several nodes") holds what the operations page promises: PostgreSQL,
// MinIO, two web nodes that leave jobs to one worker, nginx in front, a mail catcher, and only variables the
// site reads; every service says when it is healthy and starts after what it needs is. Docker itself checks
// the file where it is installed with its compose plugin; tests/db/compose-topology.test.ts runs the same
// arrangement without Docker.

interface Service {
  image?: string;
  build?: string;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }> | string[];
  healthcheck?: { test: string[] };
  volumes?: string[];
  ports?: string[];
}

const compose = parse(fs.readFileSync('docker-compose.yml', 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
};
const { services } = compose;
const nodes = ['web-a', 'web-b', 'worker'] as const;

describe('docker-compose.yml', () => {
  test('runs PostgreSQL, MinIO, two web nodes, one worker, nginx and a mail catcher', () => {
    expect(Object.keys(services)).toEqual(
      expect.arrayContaining(['postgres', 'minio', 'web-a', 'web-b', 'worker', 'nginx', 'mailpit']),
    );
    expect(services['worker']?.command).toEqual(['npm', 'run', 'worker']);
  });

  test('puts nginx in front of both web nodes from the template, looking their names up again', () => {
    const nginx = services['nginx'];
    expect(nginx?.volumes).toContain('./deploy/nginx.conf:/etc/nginx/templates/default.conf.template:ro');
    expect(nginx?.environment).toMatchObject({
      SITE_NODE_A: 'web-a:4321',
      SITE_NODE_B: 'web-b:4321',
      SITE_RESOLVER: '127.0.0.11',
      SITE_RESOLVE: 'resolve',
    });
    // nginx re-resolves upstream names since 1.27.3.
    const [major, minor, patch] = (nginx?.image?.split(':')[1] ?? '').split('.').map(Number);
    expect((major ?? 0) * 1e6 + (minor ?? 0) * 1e3 + (patch ?? 0)).toBeGreaterThanOrEqual(1_027_003);
    const template = fs.readFileSync('deploy/nginx.conf', 'utf8');
    expect(template).toMatch(
      /server \$\{SITE_NODE_A\} \$\{SITE_RESOLVE\}[^;]*;\s+server \$\{SITE_NODE_B\} \$\{SITE_RESOLVE\}/,
    );
    expect(template).toMatch(/resolver \$\{SITE_RESOLVER\}/);
    // The placeholders the template uses are the ones compose sets.
    const placeholders = new Set([...template.matchAll(/\$\{([A-Z_]+)\}/g)].map((match) => match[1]));
    expect([...placeholders].sort()).toEqual(Object.keys(nginx?.environment ?? {}).sort());
  });

  test('every service says when it is healthy, and starts after what it needs is', () => {
    for (const [name, service] of Object.entries(services)) {
      if (name === 'minio-bucket') continue;
      expect(service.healthcheck?.test, name).toBeTruthy();
      // Each word of the command a string (an unquoted `a: b` would read as a mapping).
      expect(
        service.healthcheck?.test.every((word) => typeof word === 'string'),
        name,
      ).toBe(true);
    }
    for (const name of [...nodes, 'nginx', 'minio-bucket']) {
      const needs = services[name]?.depends_on;
      expect(Array.isArray(needs), `${name} waits for conditions`).toBe(false);
      for (const [other, { condition }] of Object.entries(needs ?? {})) {
        expect(condition, `${name} → ${other}`).toBe(
          other === 'minio-bucket' ? 'service_completed_successfully' : 'service_healthy',
        );
      }
    }
    expect(services['web-a']?.healthcheck?.test.join(' ')).toContain('/readyz');
    expect(Object.keys(services['nginx']?.depends_on ?? {}).sort()).toEqual(['web-a', 'web-b']);
  });

  test('pins every image to a version', () => {
    for (const [name, service] of Object.entries(services)) {
      if (!service.image) continue;
      expect(service.image, name).toMatch(/:[^:]*\d[^:]*$/);
      expect(service.image, name).not.toMatch(/:latest$/);
    }
    expect(fs.readFileSync('Dockerfile', 'utf8')).toMatch(/^FROM node:\d+\.\d+\.\d+-/m);
  });

  test('keeps the repository history and local state out of the image', () => {
    const ignored = fs.readFileSync('.dockerignore', 'utf8').split('\n');
    for (const entry of ['.git', 'node_modules', 'data', '.env']) expect(ignored).toContain(entry);
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

  test('works from a browser as shipped: the bucket at a public address, mail, editors and one font cache', () => {
    for (const name of nodes) {
      const environment = services[name]?.environment ?? {};
      // Browsers cannot resolve the compose network's minio; they get the published port.
      expect(environment['S3_ENDPOINT'], name).toBe('http://minio:9000');
      // Each from .env, with a default that works on the machine compose runs on.
      expect(environment['S3_PUBLIC_URL'], name).toMatch(/^\$\{S3_PUBLIC_URL:-http:\/\/localhost:9000\}$/);
      expect(environment['SMTP_URL'], name).toMatch(/^\$\{SMTP_URL:-smtp:\/\/mailpit:1025\}$/);
      expect(environment['EDITOR_ACCOUNTS'], name).toMatch(/^\$\{EDITOR_ACCOUNTS:-\}$/);
      expect(environment['NPM_REGISTRY'], name).toMatch(/^\$\{NPM_REGISTRY:-https:\/\//);
      expect(services[name]?.volumes, name).toContain('font-cache:/app/data/cache/npm');
    }
    expect(services['minio']?.ports).toContain('9000:9000');
    expect(services['mailpit']?.ports).toContain('8025:8025');
  });

  test('names only variables the site reads', () => {
    for (const name of nodes) {
      const unknown = Object.keys(services[name]?.environment ?? {}).filter((key) => !ENV_VARIABLES.includes(key));
      expect(unknown, name).toEqual([]);
    }
  });

  // Skipped where Docker Compose is not installed (this CI machine cannot run Docker): the checks above read the
  // file itself, and tests/db/compose-topology.test.ts runs the same arrangement without Docker.
  const docker = spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' });
  test.skipIf(docker.status !== 0)('passes `docker compose config` where Docker Compose is installed', () => {
    const checked = spawnSync('docker', ['compose', 'config', '--quiet'], { encoding: 'utf8' });
    expect(checked.stderr).toBe('');
    expect(checked.status).toBe(0);
  });
});
