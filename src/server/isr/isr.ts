import { errorStatus } from '../../lib/route-error.ts';
import { surrogateHeaders } from '../content/cdn.ts';
import { pageKeys } from '../content/changes.ts';
import { type BodyRequest, encodedAnswer } from '../http/compressed.ts';
import { log } from '../log.ts';
import { type CachedPage, pageCache, type RenderTicket } from './page-cache.ts';

/**
 * The pages rendered on demand and then served from the page cache (incremental static
 * regeneration), with the query parameters that select a different page. Their HTML must not
 * depend on the visitor: login state, favourites and the like are filled in by islands in the
 * browser. A request with any other parameter bypasses the cache. `persist` false keeps a route's
 * query variants in memory only: free text (a keyword, a sample line) makes endless variants, and
 * the disk copy is only there to start warm.
 */
const ISR_ROUTES: Array<{ pattern: RegExp; params: ReadonlySet<string>; persistQueries: boolean }> = [
  { pattern: /^\/$/, params: new Set(), persistQueries: true },
  {
    pattern: /^\/(news|zixun|baike|album|heji)(\/\d{1,9})?$/,
    params: new Set(['current', 'tag', 'type']),
    persistQueries: true,
  },
  { pattern: /^\/case$/, params: new Set(['current']), persistQueries: true },
  { pattern: /^\/video(\/\d{1,9})?$/, params: new Set(['current']), persistQueries: true },
  { pattern: /^\/tougao$/, params: new Set(), persistQueries: true },
  { pattern: /^\/dingzhi$/, params: new Set(), persistQueries: true },
  { pattern: /^\/api$/, params: new Set(), persistQueries: true },
  { pattern: /^\/promotion(\/\d{1,9})?$/, params: new Set(['current']), persistQueries: true },
  { pattern: /^\/sitemap\.xml$/, params: new Set(), persistQueries: true },
  { pattern: /^\/news\/rss\.xml$/, params: new Set(), persistQueries: true },
  {
    pattern: /^\/font$/,
    params: new Set([
      'keyword',
      'category',
      'script',
      'weights',
      'commercialFree',
      'sort',
      'layout',
      'text',
      'px',
      'current',
    ]),
    persistQueries: false,
  },
  { pattern: /^\/font\/[A-Za-z0-9_-]{1,64}$/, params: new Set(['text', 'px', 'set', 'gp']), persistQueries: false },
];

/** After this long a cached page is rendered again on its next request (changes made outside the services)… */
export const REVALIDATE_MS = 5 * 60 * 1000;
/**
 * …plus a share of this, fixed by the page's key. Pages read in the same minutes (after a start, a
 * purge) would otherwise turn stale in the same minute, every five minutes, and their renders, one
 * after another, hold up the readers of that minute.
 */
export const REVALIDATE_SPREAD_MS = 150 * 1000;

// Browsers revalidate every time (a 304 costs a round trip and no rendering) so that a reader sees
// an edit on the next load; a shared cache may keep a page for a second and serve it stale while
// it fetches the new one.
const CACHE_CONTROL = 'public, max-age=0, must-revalidate, s-maxage=1, stale-while-revalidate=59';

/** Where a URL lives in the page cache. */
export interface PageCacheTarget {
  pathname: string;
  /** pathname + the query sorted by name. */
  key: string;
  /** False when the page is kept in memory only. */
  persist: boolean;
}

/** The cache key of a URL, or undefined when the URL is not served from the cache. */
export function pageCacheKey(url: URL): PageCacheTarget | undefined {
  const pathname = url.pathname.replace(/\.html$/, '') || '/';
  const route = ISR_ROUTES.find((candidate) => candidate.pattern.test(pathname));
  if (!route) return undefined;
  const params = [...url.searchParams];
  if (params.some(([name]) => !route.params.has(name))) return undefined;
  params.sort(([a], [b]) => a.localeCompare(b));
  const query = new URLSearchParams(params).toString();
  if (!query) return { pathname, key: pathname, persist: true };
  return { pathname, key: `${pathname}?${query}`, persist: route.persistQueries };
}

/** What to answer for a cached page: 304 when the client has it, else the best encoding it accepts. */
export function cachedAnswer(
  page: CachedPage,
  request: BodyRequest,
  state: 'HIT' | 'MISS' | 'STALE',
): { status: 200 | 304; headers: Record<string, string>; body: Buffer | null } {
  return encodedAnswer(page, request, {
    'Content-Type': page.contentType,
    'Cache-Control': CACHE_CONTROL,
    ...surrogateHeaders(pageKeys(page.pathname)),
    'Last-Modified': new Date(page.storedAt).toUTCString(),
    Age: String(Math.max(0, Math.floor((Date.now() - page.storedAt) / 1000))),
    'X-Page-Cache': state,
  });
}

/** A key's share of REVALIDATE_SPREAD_MS, between 0 and 1 (FNV-1a: the same on every node and after a restart). */
export function spreadOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return (hash >>> 0) / 0xffffffff;
}

/** True while a stored page is young enough to be served without rendering it again. */
export function isFresh(page: CachedPage, now = Date.now()): boolean {
  return now - page.storedAt <= REVALIDATE_MS + REVALIDATE_SPREAD_MS * spreadOf(page.key);
}

function respond(request: Request, page: CachedPage, state: 'HIT' | 'MISS' | 'STALE'): Response {
  const answer = cachedAnswer(
    page,
    {
      method: request.method,
      acceptEncoding: request.headers.get('Accept-Encoding'),
      ifNoneMatch: request.headers.get('If-None-Match'),
    },
    state,
  );
  return new Response(answer.body ? new Uint8Array(answer.body) : null, {
    status: answer.status,
    headers: answer.headers,
  });
}

function cacheable(response: Response): boolean {
  const type = response.headers.get('Content-Type') ?? '';
  const control = response.headers.get('Cache-Control') ?? '';
  return (
    response.status === 200 &&
    /^(text\/html|application\/(rss\+)?xml|text\/xml|text\/plain)/.test(type) &&
    !response.headers.has('Set-Cookie') &&
    !/no-store|private/.test(control)
  );
}

// Concurrent misses of one key share one rendering.
const inFlight = new Map<string, Promise<CachedPage | Response>>();

async function renderAndStore(
  target: PageCacheTarget,
  ticket: RenderTicket,
  render: () => Promise<Response>,
): Promise<CachedPage | Response> {
  const response = await render();
  if (!cacheable(response)) return response;
  const body = Buffer.from(await response.arrayBuffer());
  const contentType = response.headers.get('Content-Type') ?? 'text/html';
  const stored = await pageCache().put(ticket, { key: target.key, contentType, body, persist: target.persist });
  if (stored) return stored;
  // Purged while rendering: answer what was rendered, uncached; the next request renders afresh.
  return new Response(new Uint8Array(body), { status: 200, headers: { 'Content-Type': contentType } });
}

// Pages turn stale together (those read in the same minutes are rendered again in the same
// minutes), and renders started together run their synchronous parts back to back in one turn of
// the event loop: every reader waited 100 ms in the soak. So renders behind stale answers run one
// at a time, with a turn of the loop before each, and a page already waiting is not queued twice;
// past MAX_BEHIND waiting, a stale page is served as it is until a later request finds room.
const MAX_BEHIND = 256;
const behind = new Set<string>();
let lastBehind: Promise<unknown> = Promise.resolve();

function renderBehind(target: PageCacheTarget, render: () => Promise<Response>): void {
  if (behind.has(target.key) || behind.size >= MAX_BEHIND) return;
  behind.add(target.key);
  const cache = pageCache();
  // A page that is no longer there (deleted outside the services) stops being served stale.
  const gone = () => cache.purge([target.pathname]);
  lastBehind = lastBehind
    .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
    .then(() => renderAndStore(target, cache.ticket(target.pathname), render))
    .then(
      async (result) => {
        if (result instanceof Response && result.status === 404) await gone();
      },
      async (error: unknown) => {
        if (errorStatus(error) !== 404) throw error;
        await gone();
      },
    )
    .catch((error: unknown) =>
      log().warn({ err: error, key: target.key }, 'page could not be rendered again; serving the cached copy'),
    )
    .finally(() => behind.delete(target.key));
}

/**
 * Answers an ISR page from the page cache, rendering it with `render` (the rest of the page
 * pipeline) on a miss. A page older than REVALIDATE_MS is answered at once with the copy there is
 * and rendered again behind it (renderBehind), as a shared cache's stale-while-revalidate does:
 * nobody waits for the render that keeps a page fresh. Requests other than GET/HEAD and URLs
 * outside the ISR pages go straight to `render`.
 */
export async function servePageFromCache(
  url: URL,
  request: Request,
  render: () => Promise<Response>,
): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return render();
  const target = pageCacheKey(url);
  if (!target) return render();
  const cache = pageCache();
  const cached = await cache.get(target.pathname, target.key, target.persist);
  if (cached && isFresh(cached)) return respond(request, cached, 'HIT');
  // A HEAD render has no body to keep: it is answered from what is there, or passed through.
  if (request.method === 'HEAD') return cached ? respond(request, cached, 'STALE') : render();
  if (cached) {
    renderBehind(target, render);
    return respond(request, cached, 'STALE');
  }

  const running = inFlight.get(target.key);
  const work =
    running ?? renderAndStore(target, cache.ticket(target.pathname), render).finally(() => inFlight.delete(target.key));
  if (!running) inFlight.set(target.key, work);
  const result = await work;
  // A shared Response body can be read once only, so only the renderer's own request gets it.
  if (result instanceof Response) return running ? render() : result;
  return respond(request, result, 'MISS');
}
