import type { MiddlewareHandler } from 'hono';
import { LRUCache } from 'lru-cache';
import { gauge } from '../engine/memory-gauges.ts';

// Whole answers of the subset service, kept by request: a page of previews sends the same call for
// every visitor who has not typed a text of their own (24 fonts, the same sample), and a visitor
// going back and forth sends it again. A kept answer skips validation, the font lookup and the
// JSON and base64 encoding of the WOFF2 files. It lives as long as the service's memory of which
// file a gno names (subset.ts), so it is never staler than a fresh answer could be.

/** How long the subset service trusts what it learned of a gno (its file), and keeps whole answers. */
export const SUBSET_MEMORY_MS = 60_000;
const MEMORY_BYTES = 32 * 1024 * 1024;
/** Calls larger than this are answered afresh (and are not worth the key). */
const MAX_KEY_BYTES = 16 * 1024;

const answers = new LRUCache<string, Uint8Array>({
  maxSize: MEMORY_BYTES,
  sizeCalculation: (answer, key) => answer.byteLength + key.length * 2,
  ttl: SUBSET_MEMORY_MS,
});
gauge('subset answers', () => ({ bytes: answers.calculatedSize, limitBytes: MEMORY_BYTES, entries: answers.size }));

/** Forgets every kept answer (tests, and when the subset service is stopped). */
export function forgetSubsetAnswers(): void {
  answers.clear();
}

/**
 * Answers a subset call from memory when the same call (query and body alike) was answered well
 * a moment ago, and keeps successful answers. Runs before the body is validated.
 */
export function subsetAnswerCache(): MiddlewareHandler {
  return async (c, next) => {
    const body = await c.req.text();
    const key = body.length <= MAX_KEY_BYTES ? `${new URL(c.req.url).search}\n${body}` : undefined;
    const kept = key === undefined ? undefined : answers.get(key);
    if (kept) {
      return c.body(kept as Uint8Array<ArrayBuffer>, 200, { 'Content-Type': 'application/json; charset=UTF-8' });
    }
    await next();
    if (key !== undefined && c.res.status === 200) answers.set(key, new Uint8Array(await c.res.clone().arrayBuffer()));
    return undefined;
  };
}
