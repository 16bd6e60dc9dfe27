import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { clientIp } from '../../src/server/auth/middleware.ts';
import { isApiTarget, registerApiApp, withDirectApi } from '../../src/server/http/direct-api.ts';
import { withLivenessProbe } from '../../src/server/site/health.ts';

describe('isApiTarget', () => {
  test.each(['/web/api/x', '/webfont/http', '/captcha/get', '/files/a.ttf', '/healthz', '/readyz', '/api/v1?x=1'])(
    '%s belongs to the API',
    (target) => expect(isApiTarget(target)).toBe(true),
  );
  test.each(['/', '/font', '/webfonts', '/filesystem', '/tools/converter', '/healthzz'])('%s is a page', (target) =>
    expect(isApiTarget(target)).toBe(false),
  );
});

describe('the Node server in front of the pages', () => {
  let server: http.Server;
  let base: string;
  const pages: string[] = [];

  beforeAll(async () => {
    const api = new Hono();
    api.get('/web/api/who', (c) => c.json({ ip: clientIp(c) }));
    // Middleware that copies the request (as hono/body-limit does) must get a real Request.
    api.post('/web/api/echo', bodyLimit({ maxSize: 1024 }), async (c) => {
      c.header('Set-Cookie', 'a=1; Path=/', { append: true });
      c.header('Set-Cookie', 'b=2; Path=/', { append: true });
      return c.json({ got: await c.req.json(), origin: new URL(c.req.url).host });
    });
    api.post('/web/api/length', async (c) => c.json({ length: (await c.req.arrayBuffer()).byteLength }));
    registerApiApp(api);
    server = http.createServer(
      withLivenessProbe(
        withDirectApi((req, res) => {
          pages.push(req.url ?? '');
          res.end('page');
        }),
      ),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.close();
    registerApiApp(undefined as never);
  });

  test('hands API calls to the API app with the caller’s address, and pages to the page handler', async () => {
    expect(await (await fetch(`${base}/web/api/who`)).json()).toEqual({ ip: '127.0.0.1' });
    expect(await (await fetch(`${base}/font`)).text()).toBe('page');
    expect(pages).toEqual(['/font']);
  });

  test('passes request bodies, the Host and every cookie through', async () => {
    const answer = await fetch(`${base}/web/api/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: '永' }),
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ got: { text: '永' }, origin: new URL(base).host });
    expect(answer.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    const tooLarge = await fetch(`${base}/web/api/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'x'.repeat(4096) }),
    });
    expect(tooLarge.status).toBe(413);
  });

  test('reads small bodies whole and streams large ones, and sends a JSON answer with its length', async () => {
    for (const length of [10, 64 * 1024, 300 * 1024]) {
      const answer = await fetch(`${base}/web/api/length`, { method: 'POST', body: new Uint8Array(length) });
      const text = await answer.text();
      expect(JSON.parse(text)).toEqual({ length });
      expect(answer.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    }
  });

  test('answers /healthz itself, uncached', async () => {
    const answer = await fetch(`${base}/healthz`);
    expect(answer.headers.get('Cache-Control')).toBe('no-store');
    expect(await answer.json()).toMatchObject({ code: '200', data: { status: 'ok' } });
    expect(pages).not.toContain('/healthz');
  });
});
