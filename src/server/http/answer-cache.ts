import type http from 'node:http';
import type { Context, MiddlewareHandler, Next } from 'hono';
import { LRUCache } from 'lru-cache';
import { API_KEY, EVERY_SECTION_KEY, surrogateHeaders } from '../content/cdn.ts';
import { gaugeCache } from '../engine/memory-gauges.ts';
import { type BodyRequest, type CompressedBody, compressBody, encodedAnswer } from './compressed.ts';

/**
 * Public API reads kept as ready-to-send bytes (identity, Brotli, gzip) with an ETag, so that a
 * repeated list, detail or dictionary call costs a map lookup and a socket write. Entries carry
 * tags (the content sections they show); a write purges its section before it answers, and a read
 * that was computed across that purge is not stored, so no answer is stale once a write is
 * acknowledged. Counters shown in answers (views, downloads) are refreshed by age (`maxAgeMs`).
 */

/** A tag that every purge removes: answers that show a bit of everything (home, search). */
export const EVERY_SECTION = '*';
/** The tag of answers that show the site's download total. */
export const DOWNLOADS_TAG = 'downloads';

/** A cached answer. */
export interface CachedAnswer extends CompressedBody {
  key: string;
  tags: readonly string[];
  contentType: string;
  cacheControl: string;
  storedAt: number;
  maxAgeMs: number;
  /** Work a hit still owes (counting an article's view, say). */
  onHit: (() => void) | undefined;
  /** Set while one request renders the answer again; others are served this copy meanwhile. */
  refreshingSince?: number;
}

const MEMORY_LIMIT_BYTES = 32 * 1024 * 1024;
const MAX_ENTRIES = 20_000;
/** A refresh that has not finished after this long is given up, and the next request tries again. */
const REFRESH_TIMEOUT_MS = 10_000;

/** The cache key of a request: its path and its query parameters in name order. */
export function answerKey(pathname: string, search: string): string {
  if (search.length <= 1) return pathname;
  const params = [...new URLSearchParams(search)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${pathname}?${new URLSearchParams(params).toString()}`;
}

export class AnswerCache {
  private readonly memory = new LRUCache<string, CachedAnswer>({
    max: MAX_ENTRIES,
    maxSize: MEMORY_LIMIT_BYTES,
    sizeCalculation: (entry) => entry.body.length + entry.br.length + entry.gzip.length + entry.key.length,
  });
  /** Bumped by purgeAll; every ticket carries it. */
  private generation = 0;
  /** Bumped per tag by purge; a ticket carries those of its answer's tags. */
  private readonly generations = new Map<string, number>();
  /** Paths that have had an answer stored: other requests skip the key computation. */
  private readonly paths = new Set<string>();
  /** Answers being computed, by ticket and key: requests for the same answer meanwhile wait for it. */
  private readonly flights = new Map<string, Promise<CachedAnswer | undefined>>();

  constructor() {
    gaugeCache('api answers', this.memory);
  }

  /**
   * Joins the computation of the answer for `key` under `ticket` when one is running, or starts one:
   * `land` it with the answer (undefined when it may not be kept) once computed. Without this, every
   * request for an answer just purged computed it at once: fifty connections on the font list ran
   * fifty copies of its queries back to back on the event loop (the embedded database runs on it),
   * and reads stalled for hundreds of ms after each change to the library. A request that arrives
   * after a purge has another ticket, so it never waits for an answer computed before the change.
   */
  flight(
    ticket: string,
    key: string,
  ): { running: Promise<CachedAnswer | undefined> } | { land(entry: CachedAnswer | undefined): void } {
    const id = `${ticket} ${key}`;
    const running = this.flights.get(id);
    if (running) return { running };
    let settle: (entry: CachedAnswer | undefined) => void = () => undefined;
    this.flights.set(
      id,
      new Promise((resolve) => {
        settle = resolve;
      }),
    );
    return {
      land: (entry) => {
        if (this.flights.delete(id)) settle(entry);
      },
    };
  }

  /** Taken before an answer is computed; an answer whose tags were purged meanwhile is not stored. */
  ticket(tags: readonly string[]): string {
    return [this.generation, ...tags.map((tag) => this.generations.get(tag) ?? 0)].join(',');
  }

  /** True when answers for `pathname` may be held (cheap, for the fast path). */
  covers(pathname: string): boolean {
    return this.paths.has(pathname);
  }

  /**
   * The answer to serve for a key, or undefined when the request must be computed. A stale entry
   * is served while another request refreshes it; the first request after expiry does the refresh.
   */
  lookup(key: string, now = Date.now()): CachedAnswer | undefined {
    const entry = this.memory.get(key);
    if (!entry) return undefined;
    if (now - entry.storedAt <= entry.maxAgeMs) return entry;
    if (entry.refreshingSince !== undefined && now - entry.refreshingSince < REFRESH_TIMEOUT_MS) return entry;
    entry.refreshingSince = now;
    return undefined;
  }

  /** Keeps an answer unless one of its tags was purged since `ticket` was taken. */
  store(ticket: string, entry: CachedAnswer): boolean {
    if (this.ticket(entry.tags) !== ticket) return false;
    this.paths.add(entry.key.split('?')[0] ?? entry.key);
    this.memory.set(entry.key, entry);
    return true;
  }

  /**
   * Forgets every answer that shows `tag`, and every answer that shows all sections unless
   * `everySection` is false (a counter that only some answers show, such as downloads).
   */
  purge(tag: string, { everySection = true }: { everySection?: boolean } = {}): void {
    const names = everySection ? [tag, EVERY_SECTION] : [tag];
    for (const name of names) this.generations.set(name, (this.generations.get(name) ?? 0) + 1);
    for (const [key, entry] of [...this.memory.entries()]) {
      if (names.some((name) => entry.tags.includes(name))) this.memory.delete(key);
    }
  }

  /** Forgets every answer. */
  purgeAll(): void {
    this.generation++;
    this.memory.clear();
  }

  get size(): number {
    return this.memory.size;
  }
}

// One cache per process, shared by the page bundle's API and the Node fast path in scripts/start.ts,
// which load this module separately.
const SLOT = Symbol.for('font-alliance.answer-cache');

/** The process-wide answer cache. */
export function answerCache(): AnswerCache {
  const slot = globalThis as { [SLOT]?: AnswerCache };
  slot[SLOT] ??= new AnswerCache();
  return slot[SLOT];
}

/** The headers and body that answer `request` from a cached answer. */
export function answerFrom(entry: CachedAnswer, request: BodyRequest) {
  return encodedAnswer(entry, request, {
    'Content-Type': entry.contentType,
    'Cache-Control': entry.cacheControl,
    ...surrogateHeaders(answerKeys(entry.tags)),
    'X-Answer-Cache': 'HIT',
  });
}

// Browsers ask again each time (a 304 when nothing changed), so a write shows at once; a CDN may
// keep an answer for a second and serve it stale while it asks again, as with pages (isr.ts).
const PUBLIC_READ = 'public, max-age=0, must-revalidate, s-maxage=1, stale-while-revalidate=59';

/** The CDN keys of a cached answer (cdn.ts), from its tags. */
export function answerKeys(tags: readonly string[]): string[] {
  return [...tags.map((tag) => (tag === EVERY_SECTION ? EVERY_SECTION_KEY : tag)), API_KEY];
}

/** What a route says of its cached answers. */
export interface CachedReadOptions {
  /** The content sections the answer shows; a change in any of them purges it. */
  tags: readonly string[];
  /** How long an answer is served before it is computed again (counters in it move). */
  maxAgeMs?: number;
  /** Work each hit still owes, from the request's URL (counting a view, say). */
  onHit?: (url: URL) => void;
}

/**
 * Hono middleware for a public GET route: answers from the cache, or runs the route and keeps a
 * 200 JSON answer, compressed, for the next requests. The answer may not depend on who asks.
 */
export function cachedRead(options: CachedReadOptions): MiddlewareHandler {
  const maxAgeMs = options.maxAgeMs ?? 60_000;
  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
    const url = new URL(c.req.url);
    const key = answerKey(url.pathname, url.search);
    const cache = answerCache();
    const request: BodyRequest = {
      method: c.req.method,
      acceptEncoding: c.req.header('accept-encoding'),
      ifNoneMatch: c.req.header('if-none-match'),
    };
    const found = cache.lookup(key);
    if (found) {
      found.onHit?.();
      const answer = answerFrom(found, request);
      return new Response(answer.body ? new Uint8Array(answer.body) : null, answer);
    }
    const ticket = cache.ticket(options.tags);
    const flight = cache.flight(ticket, key);
    if ('running' in flight) {
      const computed = await flight.running;
      if (computed) {
        computed.onHit?.();
        const answer = answerFrom(computed, request);
        return new Response(answer.body ? new Uint8Array(answer.body) : null, answer);
      }
      // The answer computed meanwhile may not be kept (an error, a private answer): compute this one.
      await next();
      return;
    }
    let kept: CachedAnswer | undefined;
    try {
      kept = await computeAndKeep(c, next, { key, url, ticket, request, options, maxAgeMs });
    } finally {
      flight.land(kept);
    }
  };
}

/** Runs the route and keeps a 200 JSON answer that does not depend on who asks; answers what it kept. */
async function computeAndKeep(
  c: Context,
  next: Next,
  read: {
    key: string;
    url: URL;
    ticket: string;
    request: BodyRequest;
    options: CachedReadOptions;
    maxAgeMs: number;
  },
): Promise<CachedAnswer | undefined> {
  await next();
  const type = c.res.headers.get('Content-Type') ?? '';
  if (
    c.res.status !== 200 ||
    !type.startsWith('application/json') ||
    c.res.headers.has('Set-Cookie') ||
    c.res.headers.get('Cache-Control')?.includes('no-store')
  )
    return undefined;
  const compressed = await compressBody(Buffer.from(await c.res.arrayBuffer()));
  const onHit = read.options.onHit;
  const entry: CachedAnswer = {
    ...compressed,
    key: read.key,
    tags: read.options.tags,
    contentType: type,
    cacheControl: PUBLIC_READ,
    storedAt: Date.now(),
    maxAgeMs: read.maxAgeMs,
    onHit: onHit ? () => onHit(read.url) : undefined,
  };
  answerCache().store(read.ticket, entry);
  const answer = encodedAnswer(entry, read.request, {
    'Content-Type': type,
    'Cache-Control': PUBLIC_READ,
    ...surrogateHeaders(answerKeys(entry.tags)),
  });
  // Cleared first: Hono would otherwise copy the old answer's headers onto the new one.
  c.res = undefined;
  c.res = new Response(answer.body ? new Uint8Array(answer.body) : null, answer);
  return entry;
}

/**
 * Puts the answer cache in front of a Node request handler: a held answer goes straight to the
 * socket, before any routing. Misses, writes and other paths go on to `handler`.
 */
export function withAnswerCache(handler: http.RequestListener): http.RequestListener {
  const cache = answerCache();
  return (req, res) => {
    const target = req.url ?? '/';
    if (req.method !== 'GET' && req.method !== 'HEAD') return handler(req, res);
    const mark = target.indexOf('?');
    const pathname = mark === -1 ? target : target.slice(0, mark);
    if (!cache.covers(pathname)) return handler(req, res);
    const entry = cache.lookup(answerKey(pathname, mark === -1 ? '' : target.slice(mark)));
    if (!entry) return handler(req, res);
    entry.onHit?.();
    const answer = answerFrom(entry, {
      method: req.method,
      acceptEncoding: req.headers['accept-encoding'],
      ifNoneMatch: req.headers['if-none-match'],
    });
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body ?? undefined);
  };
}
