import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Hono } from 'hono';
import { afterEach, describe, expect, test, vi } from 'vitest';
import {
  AnswerCache,
  answerCache,
  answerKey,
  cachedRead,
  EVERY_SECTION,
  withAnswerCache,
} from '../../src/server/http/answer-cache.ts';
import { compressBody } from '../../src/server/http/compressed.ts';

async function entry(key: string, tags: string[], text = '{"code":"200"}') {
  return {
    ...(await compressBody(Buffer.from(text))),
    key,
    tags,
    contentType: 'application/json',
    cacheControl: 'public, max-age=0, must-revalidate',
    storedAt: Date.now(),
    maxAgeMs: 60_000,
    onHit: undefined,
  };
}

afterEach(() => answerCache().purgeAll());

describe('answerKey', () => {
  test('orders the query by name and keeps repeated names in their order', () => {
    expect(answerKey('/web/api/x', '?size=10&current=1')).toBe('/web/api/x?current=1&size=10');
    expect(answerKey('/web/api/x', '?id=2&id=1')).toBe('/web/api/x?id=2&id=1');
    expect(answerKey('/web/api/x', '')).toBe('/web/api/x');
    expect(answerKey('/web/api/x', '?')).toBe('/web/api/x');
  });
});

describe('AnswerCache', () => {
  test('a purge forgets the answers of its section and of every section, and no others', async () => {
    const cache = new AnswerCache();
    for (const [key, tags] of [
      ['/news', ['news']],
      ['/fonts', ['font']],
      ['/home', [EVERY_SECTION]],
    ] as const) {
      expect(cache.store(cache.ticket(tags), await entry(key, [...tags]))).toBe(true);
    }
    cache.purge('news');
    expect(cache.lookup('/news')).toBeUndefined();
    expect(cache.lookup('/home')).toBeUndefined();
    expect(cache.lookup('/fonts')).toBeDefined();
  });

  test('an answer computed across a purge of its section is not stored', async () => {
    const cache = new AnswerCache();
    const ticket = cache.ticket(['news']);
    cache.purge('news');
    expect(cache.store(ticket, await entry('/news', ['news']))).toBe(false);
    expect(cache.lookup('/news')).toBeUndefined();
    // One of another section is.
    const other = cache.ticket(['font']);
    cache.purge('news');
    expect(cache.store(other, await entry('/fonts', ['font']))).toBe(true);
    // purgeAll covers sections never purged before.
    const late = cache.ticket(['case']);
    cache.purgeAll();
    expect(cache.store(late, await entry('/case', ['case']))).toBe(false);
  });

  test('past its age an answer is refreshed by one request while the others get the old copy', async () => {
    const cache = new AnswerCache();
    cache.store(cache.ticket(['news']), await entry('/news', ['news']));
    const later = Date.now() + 61_000;
    expect(cache.lookup('/news', later)).toBeUndefined();
    expect(cache.lookup('/news', later + 5)).toBeDefined();
    // A refresh that never finished is tried again.
    expect(cache.lookup('/news', later + 11_000)).toBeUndefined();
  });
});

describe('cachedRead', () => {
  function app(handler: () => unknown) {
    const routes = new Hono();
    routes.get('/web/api/list', cachedRead({ tags: ['news'] }), (c) => c.json(handler() as object));
    routes.get('/web/api/missing', cachedRead({ tags: ['news'] }), (c) => c.json({ code: '404' }, 404));
    return routes;
  }

  test('keeps a JSON answer compressed with an ETag, answers 304, and recomputes after a purge', async () => {
    const handler = vi.fn(() => ({ code: '200', data: [1, 2, 3] }));
    const routes = app(handler);
    const first = await routes.request('/web/api/list?b=2&a=1', { headers: { 'accept-encoding': 'gzip, br' } });
    expect(first.headers.get('Content-Encoding')).toBe('br');
    expect(first.headers.get('Vary')).toBe('Accept-Encoding');
    const etag = first.headers.get('ETag') ?? '';
    expect(etag).toMatch(/^".+"$/);
    const second = await routes.request('/web/api/list?a=1&b=2');
    expect(second.headers.get('X-Answer-Cache')).toBe('HIT');
    expect(await second.json()).toEqual({ code: '200', data: [1, 2, 3] });
    expect(handler).toHaveBeenCalledTimes(1);
    const revalidated = await routes.request('/web/api/list?a=1&b=2', { headers: { 'if-none-match': etag } });
    expect(revalidated.status).toBe(304);

    answerCache().purge('news');
    handler.mockReturnValue({ code: '200', data: [4] });
    expect(await (await routes.request('/web/api/list?a=1&b=2')).json()).toEqual({ code: '200', data: [4] });
    expect(handler).toHaveBeenCalledTimes(2);
  });

  test('does not keep error answers', async () => {
    const routes = app(() => ({}));
    await routes.request('/web/api/missing');
    expect((await routes.request('/web/api/missing')).headers.get('X-Answer-Cache')).toBeNull();
  });
});

describe('withAnswerCache', () => {
  test('answers a held answer before the handler, and passes everything else on', async () => {
    const cache = answerCache();
    cache.store(cache.ticket(['news']), await entry('/web/api/list?a=1&b=2', ['news'], '{"held":true}'));
    const handled: string[] = [];
    const server = http.createServer(
      withAnswerCache((req, res) => {
        handled.push(`${req.method} ${req.url}`);
        res.end('handler');
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const hit = await fetch(`${base}/web/api/list?b=2&a=1`, { headers: { 'accept-encoding': 'gzip' } });
      expect(hit.headers.get('X-Answer-Cache')).toBe('HIT');
      expect(await hit.json()).toEqual({ held: true });
      const head = await fetch(`${base}/web/api/list?a=1&b=2`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(await (await fetch(`${base}/web/api/list?a=2`)).text()).toBe('handler');
      expect(await (await fetch(`${base}/web/api/list?a=1&b=2`, { method: 'POST' })).text()).toBe('handler');
      expect(handled).toEqual(['GET /web/api/list?a=2', 'POST /web/api/list?a=1&b=2']);
    } finally {
      server.close();
    }
  });
});
