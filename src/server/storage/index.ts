import path from 'node:path';
import { env } from '../env.ts';
import { HotStorage } from './hot.ts';
import { LocalStorage } from './local.ts';
import type { Storage } from './types.ts';

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
