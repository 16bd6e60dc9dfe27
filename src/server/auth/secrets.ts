import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { env } from '../env.ts';

const cached = new Map<string, Buffer>();

/**
 * A secret of the site: `configured` when set (the same value on every node), else 32 random bytes
 * made on first use and kept in `${DATA_DIR}/secrets/<name>.key`, so that what it signed survives
 * a restart.
 */
export function siteSecret(name: string, configured?: string): Buffer {
  if (configured) return Buffer.from(configured, 'utf8');
  const file = path.join(env().dataDir, 'secrets', `${name}.key`);
  const hit = cached.get(file);
  if (hit) return hit;
  let secret: Buffer;
  try {
    secret = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64url');
  } catch {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    secret = randomBytes(32);
    try {
      // 'wx' fails when another process wrote the file first; then its secret wins.
      fs.writeFileSync(file, secret.toString('base64url'), { flag: 'wx', mode: 0o600 });
    } catch {
      secret = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64url');
    }
  }
  cached.set(file, secret);
  return secret;
}
