import path from 'node:path';
import { type Env, env } from '../env.ts';
import { HotStorage } from './hot.ts';
import { LocalStorage } from './local.ts';
import { bucketOrigin, parseStorageUrl, type S3Config, S3Storage } from './s3.ts';
import type { Storage } from './types.ts';

export { LocalStorage } from './local.ts';
export * from './types.ts';
export { localUploadCredentials } from './upload-credentials.ts';

let cached: { where: string; storage: Storage } | undefined;

/** The S3 bucket STORAGE_URL names, with the S3_* variables; undefined for local files. */
export function s3Config(config: Env = env()): S3Config | undefined {
  if (!config.STORAGE_URL) return undefined;
  const { S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey } = config;
  return {
    ...parseStorageUrl(config.STORAGE_URL),
    endpoint: config.S3_ENDPOINT,
    publicEndpoint: config.S3_PUBLIC_URL,
    region: config.S3_REGION,
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
  };
}

/**
 * The configured storage: the bucket of STORAGE_URL when it is set, else files under
 * `${DATA_DIR}/storage`. The instance follows the configuration, so tests that point it elsewhere
 * get a new one.
 */
export function storage(): Storage {
  const config = env();
  const bucket = s3Config(config);
  const root = path.join(config.dataDir, 'storage');
  const where = bucket
    ? `${config.STORAGE_URL} at ${config.S3_ENDPOINT ?? 'AWS'} (${config.S3_PUBLIC_URL ?? ''})`
    : root;
  if (cached?.where !== where) {
    cached = { where, storage: new HotStorage(bucket ? new S3Storage(bucket) : new LocalStorage(root)) };
  }
  return cached.storage;
}

/** The origin the browser sends presigned uploads to when it is not the site itself (the CSP allows it). */
export function uploadOrigin(config: Env = env()): string {
  const bucket = s3Config(config);
  return bucket ? bucketOrigin(bucket) : '';
}

/** Where presigned uploads land before the server checks them; swept like the tools' uploads. */
export const INCOMING_PREFIX = 'tools/incoming';
