import type http from 'node:http';
import { cachedAnswer, isFresh, pageCacheKey } from './isr.ts';
import { pageCache } from './page-cache.ts';

/**
 * Puts the page cache in front of a Node request handler (the Astro server's): a fresh page held
 * in memory is written straight to the socket, at the cost of a static file, before Astro routes
 * the request. Everything else (misses, stale pages, other URLs) goes to the handler, whose
 * middleware renders and stores the page (servePageFromCache).
 */
export function withPageCache(handler: http.RequestListener): http.RequestListener {
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return handler(req, res);
    // Joined, not resolved: a request target like `//evil.example` must stay a path on this host.
    const target = pageCacheKey(new URL(`http://localhost${req.url ?? '/'}`));
    const page = target ? pageCache().peek(target.key) : undefined;
    if (!page || !isFresh(page)) return handler(req, res);
    const answer = cachedAnswer(
      page,
      {
        method: req.method,
        acceptEncoding: req.headers['accept-encoding'] ?? null,
        ifNoneMatch: req.headers['if-none-match'] ?? null,
      },
      'HIT',
    );
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body ?? undefined);
  };
}
