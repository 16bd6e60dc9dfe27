import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { gaugeCache } from '../../engine/memory-gauges.ts';
import type { CloudTaskResult } from './tasks.ts';

// A cloud is the same picture for the same words, font file, shape and seed, and the page opens on
// the same sample for everyone: its first picture (the page's largest paint) and any cloud drawn
// again after a round trip come from memory instead of seconds of layout in a worker.

const MAX_BYTES = 16 * 1024 * 1024;

const cache = new LRUCache<string, CloudTaskResult>({
  maxSize: MAX_BYTES,
  sizeCalculation: (result) => Math.max(1, result.bytes.byteLength),
  // Kept a day at most: a cloud is cheap to draw again, and nothing need pin memory for long.
  ttl: 24 * 60 * 60 * 1000,
});
gaugeCache('word clouds', cache);

/** The cache key of a drawing: every input of the task, the font and shape by their stored keys. */
export function cloudKey(task: unknown): string {
  return createHash('sha256').update(JSON.stringify(task)).digest('base64url');
}

/** Answers a drawing from memory, or draws it and keeps it. A failed drawing is not kept. */
export async function cachedCloud(key: string, draw: () => Promise<CloudTaskResult>): Promise<CloudTaskResult> {
  const kept = cache.get(key);
  if (kept) return kept;
  const result = await draw();
  cache.set(key, result);
  return result;
}
