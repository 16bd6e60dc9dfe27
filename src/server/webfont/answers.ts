import type { MiddlewareHandler } from 'hono';
import { LRUCache } from 'lru-cache';
import { gaugeCache } from '../engine/memory-gauges.ts';
import type { KeptAnswers } from '../http/direct-api.ts';

// Whole answers of the subset service, kept by request: a page of previews sends the same call for
// every visitor who has not typed a text of their own (24 fonts, the same sample), and a visitor
// going back and forth sends it again. A kept answer skips validation, the font lookup and the
// JSON and base64 encoding of the WOFF2 files; served by the Node server (scripts/start.ts, through
// http/direct-api.ts) it skips the API app as well. It lives as long as the service's memory of
// which file a gno names (subset.ts), so it is never staler than a fresh answer could be.

/** How long the subset service trusts what it learned of a gno (its file), and keeps whole answers. */
export const SUBSET_MEMORY_MS = 60_000;
const MEMORY_BYTES = 32 * 1024 * 1024;
/** Calls larger than this are answered afresh (and are not worth the key). */
const MAX_KEY_BYTES = 16 * 1024;
/** As the route's fresh answer says (Hono's c.json): JSON is UTF-8 by definition. */
const CONTENT_TYPE = 'application/json';

// One store per process: the page bundle's API app keeps answers, and the Node server in
// scripts/start.ts, which loads this module apart, serves them.
const SLOT = Symbol.for('font-alliance.subset-answers');

function answers(): LRUCache<string, Uint8Array> {
  const slot = globalThis as { [SLOT]?: LRUCache<string, Uint8Array> };
  if (!slot[SLOT]) {
    const kept = new LRUCache<string, Uint8Array>({
      maxSize: MEMORY_BYTES,
      sizeCalculation: (answer, key) => answer.byteLength + key.length * 2,
      ttl: SUBSET_MEMORY_MS,
      // The clock is read where it is asked for, not held from when lru-cache loaded, so a test's
      // fake timers move it too.
      perf: { now: () => performance.now() },
    });
    gaugeCache('subset answers', kept);
    // An expired answer is never served, but the cache lets it go only when it is asked for again or
    // pushed out: after a busy hour it would keep its 32 MB of answers nobody can use. One sweep a
    // minute gives them back (lru-cache's own autopurge would set a timer per answer).
    setInterval(() => kept.purgeStale(), SUBSET_MEMORY_MS).unref();
    slot[SLOT] = kept;
  }
  return slot[SLOT];
}

/** The key of a call (query and body alike), or undefined for a call too large to keep. */
function keyOf(search: string, body: string): string | undefined {
  return body.length <= MAX_KEY_BYTES ? `${search}\n${body}` : undefined;
}

/** Forgets every kept answer (tests, and when the subset service is stopped). */
export function forgetSubsetAnswers(): void {
  answers().clear();
}

/** The subset service's kept answers, for the Node server to serve before the API app. */
export const keptSubsetAnswers: KeptAnswers = {
  method: 'POST',
  path: '/webfont/http',
  maxBodyBytes: MAX_KEY_BYTES,
  contentType: CONTENT_TYPE,
  lookup(search, body) {
    const key = keyOf(search, body);
    return key === undefined ? undefined : answers().get(key);
  },
};

/**
 * Answers a subset call from memory when the same call (query and body alike) was answered well
 * a moment ago, and keeps successful answers. Runs before the body is validated.
 */
export function subsetAnswerCache(): MiddlewareHandler {
  return async (c, next) => {
    const body = await c.req.text();
    const key = keyOf(new URL(c.req.url).search, body);
    const kept = key === undefined ? undefined : answers().get(key);
    if (kept) return c.body(kept as Uint8Array<ArrayBuffer>, 200, { 'Content-Type': CONTENT_TYPE });
    await next();
    if (key !== undefined && c.res.status === 200)
      answers().set(key, new Uint8Array(await c.res.clone().arrayBuffer()));
    return undefined;
  };
}
