import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { createApp } from '../../src/server/app.ts';
import { closeDatabase, openDatabase, useDatabase } from '../../src/server/db/client.ts';
import { ok } from '../../src/server/http/envelope.ts';
import { pageQuery, validate } from '../../src/server/http/validate.ts';

function appWithProbes() {
  const app = createApp();
  app.get('/web/api/probe/page', validate('query', pageQuery), (c) => c.json(ok(c.req.valid('query'))));
  app.post(
    '/web/api/probe/body',
    validate('json', z.object({ name: z.string().min(2).meta({ label: '名称' }) })),
    (c) => c.json(ok(c.req.valid('json'))),
  );
  app.get('/web/api/probe/boom', () => {
    throw new Error('database password is hunter2');
  });
  return app;
}

describe('createApp', () => {
  beforeAll(async () => {
    useDatabase(await openDatabase({ dir: 'memory://' }));
  });
  afterAll(closeDatabase);

  test('answers an unknown API path with 404 in the envelope', async () => {
    const res = await appWithProbes().request('/web/api/no/such/thing');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ code: '404', message: '接口不存在：GET /web/api/no/such/thing', data: null });
  });

  test('wraps a success in the envelope with code "200"', async () => {
    const res = await appWithProbes().request('/web/api/probe/page?current=2&size=5');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ code: '200', message: '操作成功', data: { current: 2, size: 5 } });
  });

  test.each([
    ['current=0', '页码（current）'],
    ['current=abc', '页码（current）'],
    ['size=101', '每页条数（size）'],
    ['size=-1', '每页条数（size）'],
  ])('rejects the query %s with 400 and a Chinese message naming %s', async (query, label) => {
    const res = await appWithProbes().request(`/web/api/probe/page?${query}`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; message: string };
    expect(body.code).toBe('400');
    expect(body.message.startsWith(`${label}：`)).toBe(true);
  });

  test('rejects a body field with a message that names it', async () => {
    const res = await appWithProbes().request('/web/api/probe/body', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'a' }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/^名称（name）：/);
  });

  test('answers malformed JSON with 400, not 500', async () => {
    const res = await appWithProbes().request('/web/api/probe/body', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name": ',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: '400', message: '请求体不是有效的 JSON', data: null });
  });

  test('hides the text of an unexpected error and gives the request id instead', async () => {
    const res = await appWithProbes().request('/web/api/probe/boom');
    expect(res.status).toBe(500);
    const body = (await res.json()) as { message: string };
    expect(body.message).not.toContain('hunter2');
    expect(body.message).toContain(res.headers.get('x-request-id') ?? 'missing request id');
  });

  test('reports liveness and database readiness', async () => {
    const app = appWithProbes();
    expect(await (await app.request('/healthz')).json()).toMatchObject({ code: '200', data: { status: 'ok' } });
    const ready = await app.request('/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ data: { status: 'ready', database: 'pglite' } });
  });

  test('reports not ready with 503 when the database does not answer', async () => {
    const real = await openDatabase({ dir: 'memory://' });
    useDatabase({ ...real, ping: () => Promise.reject(new Error('connection refused')) });
    const ready = await appWithProbes().request('/readyz');
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ code: '503', data: { status: 'unavailable' } });
    await real.close();
    useDatabase(await openDatabase({ dir: 'memory://' }));
  });
});
