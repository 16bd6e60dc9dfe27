import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Hono } from 'hono';
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

  test('answers /healthz itself, uncached', async () => {
    const answer = await fetch(`${base}/healthz`);
    expect(answer.headers.get('Cache-Control')).toBe('no-store');
    expect(await answer.json()).toMatchObject({ code: '200', data: { status: 'ok' } });
    expect(pages).not.toContain('/healthz');
  });
});
