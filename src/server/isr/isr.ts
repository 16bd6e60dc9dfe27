import { log } from '../log.ts';
import { type CachedPage, pageCache, type RenderTicket } from './page-cache.ts';

/**
 * The pages rendered on demand and then served from the page cache (incremental static
 * regeneration). Their HTML must not depend on the visitor: login state, favourites and the like
 * are filled in by islands in the browser.
 */
const ISR_PATHS: RegExp[] = [
  /^\/$/,
  /^\/(news|zixun|baike|album|heji)(\/\d{1,9})?$/,
  /^\/case$/,
  /^\/promotion(\/\d{1,9})?$/,
  /^\/sitemap\.xml$/,
  /^\/news\/rss\.xml$/,
];

/** Query parameters that select a different page of a list; any other parameter bypasses the cache. */
const CACHED_PARAMS = new Set(['current', 'tag', 'type']);

/** After this long a cached page is rendered again on its next request (changes made outside the services). */
export const REVALIDATE_MS = 5 * 60 * 1000;

// Browsers revalidate every time (a 304 costs a round trip and no rendering) so that a reader sees
// an edit on the next load; a shared cache may keep a page for a second and serve it stale while
// it fetches the new one.
const CACHE_CONTROL = 'public, max-age=0, must-revalidate, s-maxage=1, stale-while-revalidate=59';

/** The cache key of a URL, or undefined when the URL is not served from the cache. */
export function pageCacheKey(url: URL): { pathname: string; key: string } | undefined {
  const pathname = url.pathname.replace(/\.html$/, '') || '/';
  if (!ISR_PATHS.some((pattern) => pattern.test(pathname))) return undefined;
  const params = [...url.searchParams];
  if (params.some(([name]) => !CACHED_PARAMS.has(name))) return undefined;
  params.sort(([a], [b]) => a.localeCompare(b));
  const query = new URLSearchParams(params).toString();
  return { pathname, key: query ? `${pathname}?${query}` : pathname };
}

function etagMatches(header: string | null, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** What to answer for a cached page: 304 when the client has it, else the best encoding it accepts. */
export function cachedAnswer(
  page: CachedPage,
  request: { method: string; acceptEncoding: string | null; ifNoneMatch: string | null },
  state: 'HIT' | 'MISS' | 'STALE',
): { status: 200 | 304; headers: Record<string, string>; body: Buffer | null } {
  const headers: Record<string, string> = {
    'Content-Type': page.contentType,
    'Cache-Control': CACHE_CONTROL,
    ETag: page.etag,
    'Last-Modified': new Date(page.storedAt).toUTCString(),
    Age: String(Math.max(0, Math.floor((Date.now() - page.storedAt) / 1000))),
    Vary: 'Accept-Encoding',
    'X-Page-Cache': state,
  };
  if (etagMatches(request.ifNoneMatch, page.etag)) return { status: 304, headers, body: null };
  const accepted = request.acceptEncoding ?? '';
  let body = page.body;
  if (/\bbr\b/.test(accepted)) {
    body = page.br;
    headers['Content-Encoding'] = 'br';
  } else if (/\bgzip\b/.test(accepted)) {
    body = page.gzip;
    headers['Content-Encoding'] = 'gzip';
  }
  headers['Content-Length'] = String(body.length);
  return { status: 200, headers, body: request.method === 'HEAD' ? null : body };
}

/** True while a stored page is young enough to be served without rendering it again. */
export function isFresh(page: CachedPage, now = Date.now()): boolean {
  return now - page.storedAt <= REVALIDATE_MS;
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
  key: string,
  ticket: RenderTicket,
  render: () => Promise<Response>,
): Promise<CachedPage | Response> {
  const response = await render();
  if (!cacheable(response)) return response;
  const body = Buffer.from(await response.arrayBuffer());
  const contentType = response.headers.get('Content-Type') ?? 'text/html';
  const stored = await pageCache().put(ticket, { key, contentType, body });
  if (stored) return stored;
  // Purged while rendering: answer what was rendered, uncached; the next request renders afresh.
  return new Response(new Uint8Array(body), { status: 200, headers: { 'Content-Type': contentType } });
}

/**
 * Answers an ISR page from the page cache, rendering it with `render` (the rest of the page
 * pipeline) on a miss or when it is older than REVALIDATE_MS. Requests other than GET/HEAD and
 * URLs outside the ISR pages go straight to `render`. While a stale page is being rendered again,
 * other readers get the stale copy.
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
  const cached = await cache.get(target.pathname, target.key);
  if (cached && isFresh(cached)) return respond(request, cached, 'HIT');
  // A HEAD render has no body to keep: it is answered from what is there, or passed through.
  if (request.method === 'HEAD') return cached ? respond(request, cached, 'STALE') : render();

  const running = inFlight.get(target.key);
  if (running && cached) return respond(request, cached, 'STALE');
  const work =
    running ??
    renderAndStore(target.key, cache.ticket(target.pathname), render).finally(() => inFlight.delete(target.key));
  if (!running) inFlight.set(target.key, work);
  try {
    const result = await work;
    // A shared Response body can be read once only, so only the renderer's own request gets it.
    if (result instanceof Response) return running ? render() : result;
    return respond(request, result, 'MISS');
  } catch (error) {
    if (cached) {
      log().warn({ err: error, key: target.key }, 'page could not be rendered again; serving the cached copy');
      return respond(request, cached, 'STALE');
    }
    throw error;
  }
}
