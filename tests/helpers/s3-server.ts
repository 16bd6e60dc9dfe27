import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import type { S3Config } from '../../src/server/storage/s3.ts';

/** A real S3-speaking server (s3rver) on a free local port with one empty bucket. */
export interface S3Server {
  endpoint: string;
  bucket: string;
  /** s3rver's built-in key pair. */
  accessKeyId: string;
  secretAccessKey: string;
  /** A driver configuration for a folder of the bucket. */
  config(prefix: string, extra?: Partial<S3Config>): S3Config;
  /** The variables that point the site at a folder of the bucket. */
  env(prefix: string): Record<string, string>;
  close(): Promise<void>;
}

const BUCKET = 'font-alliance-test';

/** Starts s3rver in a child process (tests/helpers/s3-server-process.ts) and waits until it listens. */
export async function startS3Server(): Promise<S3Server> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'font-alliance-s3-'));
  const child: ChildProcess = spawn(
    process.execPath,
    ['--openssl-legacy-provider', path.join(import.meta.dirname, 's3-server-process.ts'), directory, BUCKET],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`s3rver stopped before it listened (exit ${code})`)));
    readline
      .createInterface({ input: child.stdout as NodeJS.ReadableStream })
      .once('line', (line) => resolve((JSON.parse(line) as { port: number }).port));
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const keys = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  return {
    endpoint,
    bucket: BUCKET,
    ...keys,
    config: (prefix, extra = {}) => ({
      bucket: BUCKET,
      prefix,
      endpoint,
      region: 'us-east-1',
      credentials: keys,
      forcePathStyle: true,
      ...extra,
    }),
    env: (prefix) => ({
      STORAGE_URL: `s3://${BUCKET}/${prefix}`,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: keys.accessKeyId,
      S3_SECRET_ACCESS_KEY: keys.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    }),
    close: async () => {
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
