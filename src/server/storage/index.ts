import path from 'node:path';
import { siteSecret } from '../auth/secrets.ts';
import { env } from '../env.ts';
import { HotStorage } from './hot.ts';
import { LocalStorage } from './local.ts';
import { presignUrl, type SigningCredentials } from './presign.ts';
import { publicPath, type Storage } from './types.ts';

export { LocalStorage } from './local.ts';
export * from './types.ts';

let cached: { root: string; storage: Storage } | undefined;

/**
 * The configured storage. Only the local driver exists so far: objects live under
 * `${DATA_DIR}/storage`. The instance follows DATA_DIR, so tests that point it elsewhere get a new one.
 */
export function storage(): Storage {
  const root = path.join(env().dataDir, 'storage');
  if (cached?.root !== root) cached = { root, storage: new HotStorage(new LocalStorage(root)) };
  return cached.storage;
}

/** Where presigned uploads land before the server checks them; swept like the tools' uploads. */
export const INCOMING_PREFIX = 'tools/incoming';

/** The key pair the site's own storage signs and checks its presigned uploads with. */
export function localUploadCredentials(): SigningCredentials {
  return {
    accessKeyId: 'site',
    secretAccessKey: siteSecret('upload-url', env().UPLOAD_URL_SECRET).toString('base64url'),
    region: 'local',
  };
}

/**
 * Presigned PUT of one object of exactly `size` bytes and `contentType`, valid `expiresSeconds`:
 * a path on the site for the local storage (checked by PUT /files/<key>), an S3 URL for a bucket.
 */
export function presignedPut(
  key: string,
  file: { size: number; contentType: string },
  expiresSeconds: number,
  now: Date,
): { url: string; headers: Record<string, string> } {
  const headers = { 'content-length': String(file.size), 'content-type': file.contentType };
  const url = presignUrl(localUploadCredentials(), {
    method: 'PUT',
    origin: '',
    path: publicPath(key),
    headers,
    expiresSeconds,
    now,
  });
  return { url, headers };
}
