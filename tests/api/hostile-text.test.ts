import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { createApp } from '../../src/server/app.ts';
import { closeDatabase, openDatabase, useDatabase } from '../../src/server/db/client.ts';
import { logUnexpected } from '../../src/server/http/error-log.ts';
import { log } from '../../src/server/log.ts';

const app = createApp();
const NUL = '%00';
// U+D800 alone, as JSON writes it; in a URL it has no UTF-8 form, so queries carry it escaped in JSON only.
const LONE = '\ud800';

/** Every GET and POST path the API serves, with path parameters filled in. */
function paths(method: string): string[] {
  const found = app.routes
    .filter((route) => route.method === method && !route.path.includes('*'))
    .map((route) => route.path.replace(/:(\w+)(\{[^}]*\})?/g, '1'));
  return [...new Set(found)];
}

async function answer(
  path: string,
  init?: RequestInit,
): Promise<{ status: number; body: { code: string; message: string } }> {
  const res = await app.request(path, init);
  return { status: res.status, body: (await res.json()) as { code: string; message: string } };
}

beforeAll(async () => {
  useDatabase(await openDatabase({ dir: 'memory://' }));
});
afterAll(closeDatabase);

describe('text that cannot reach the database', () => {
  test('a NUL in any GET route’s query answers 400 in Chinese, naming the parameter', async () => {
    const gets = paths('GET');
    expect(gets.length).toBeGreaterThan(30);
    for (const path of gets) {
      const { status, body } = await answer(`${path}?gno=a${NUL}b&id=1`);
      expect({ path, status }).toEqual({ path, status: 400 });
      expect(body.message).toContain('参数 gno');
    }
  });

  test('the calls that answered 500 for a NUL now answer 400', async () => {
    for (const path of [
      `/web/api/font/getFontDetail?fontGNo=x${NUL}`,
      `/web/api/web-column/getColumnByType?type=x${NUL}`,
      `/web/api/keyword/getKeyword?keyword=${NUL}`,
      `/web/api/contributeTemplate/queryByType?type=${NUL}`,
    ]) {
      expect((await answer(path)).status).toBe(400);
    }
  });

  test('a NUL or a lone surrogate in a JSON body answers 400 naming the field, and no POST route fails on one', async () => {
    const post = (path: string, value: string) =>
      answer(path, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: value, list: ['ok'] }),
      });
    for (const path of paths('POST')) {
      for (const bad of ['a\u0000b', `a${LONE}b`])
        expect({ path, status: (await post(path, bad)).status < 500 }).toEqual({ path, status: true });
    }
    // Calls that read a JSON body refuse it before their own checks, naming the field (a call that
    // needs a login asks for it first, and reads no body of a visitor's).
    for (const path of ['/web/api/account/sendCode', '/web/api/messageBoard/save', '/webfont/http', '/web/api/login']) {
      for (const bad of ['a\u0000b', `a${LONE}b`]) {
        const { status, body } = await post(path, bad);
        expect({ path, status }).toEqual({ path, status: 400 });
        expect(body.message).toContain('字段 name');
      }
    }
  });

  test('a NUL in the path or a form body answers 400; ordinary text passes', async () => {
    expect((await answer(`/api/v1/web/a${NUL}b/download`)).status).toBe(400);
    const form = await answer('/web/api/messageBoard/save', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'content=%00',
    });
    expect(form.status).toBe(400);
    expect((await answer('/web/api/keyword/getKeyword?keyword=%E5%AD%97%E4%BD%93')).status).toBe(200);
  });
});

describe('wrong methods', () => {
  test('answer 405 with the methods the path accepts', async () => {
    const res = await app.request('/web/api/logout', { method: 'GET' });
    expect(res.status).toBe(405);
    expect(res.headers.get('Allow')).toBe('POST');
    expect(((await res.json()) as { message: string }).message).toMatch(/^网络请求错误，请求方法未允许/);
    expect((await app.request('/web/api/no/such/call')).status).toBe(404);
  });
});

describe('logUnexpected', () => {
  test('logs a database error without its parameters, and a repeated one once a minute with a count', () => {
    const error = vi.spyOn(log(), 'error').mockImplementation(() => undefined);
    const failure = Object.assign(new Error('Failed query'), {
      query: 'select "id" from "fonts" where "gno" = $1',
      params: ['secret typed by a user'],
      cause: Object.assign(new Error('invalid byte sequence'), { code: '22021' }),
    });
    logUnexpected(failure, 'r1', '/web/api/x', 1_000);
    logUnexpected(failure, 'r2', '/web/api/x', 2_000);
    logUnexpected(failure, 'r3', '/web/api/x', 3_000);
    logUnexpected(failure, 'r4', '/web/api/x', 62_000);
    expect(error).toHaveBeenCalledTimes(2);
    const first = JSON.stringify(error.mock.calls[0]);
    expect(first).toContain('select \\"id\\" from \\"fonts\\"');
    expect(first).toContain('22021');
    expect(first).not.toContain('secret typed by a user');
    expect(error.mock.calls[1]?.[0]).toMatchObject({ reqId: 'r4', repeated: 2 });
    error.mockRestore();
  });
});

describe('validation messages', () => {
  test('say a missing or mistyped field the way a form does, naming it, with no schema words', async () => {
    const missing = await answer('/webfont/http', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify([{ gno: 'noto-sans-sc-400' }]),
    });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/text.*：不能为空$/);
    const mistyped = await answer('/webfont/http', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify([{ gno: 'noto-sans-sc-400', text: 5 }]),
    });
    expect(mistyped.body.message).toMatch(/text.*：格式不正确，应为文字$/);
    for (const message of [missing.body.message, mistyped.body.message]) {
      expect(message).not.toMatch(/string|number|undefined|期望|实际接收/);
    }
  });
});

describe('caching of private answers', () => {
  test('an answer to a request with a login is private and never stored; a public read is public for everyone', async () => {
    const withToken = await app.request('/web/api/collection/allFont', {
      headers: { 'alliance-authenticate': 'a'.repeat(64) },
    });
    expect(withToken.headers.get('Cache-Control')).toBe('private, no-store');
    const withCookie = await app.request('/web/api/collection/allFont', {
      headers: { cookie: `token=${'b'.repeat(64)}` },
    });
    expect(withCookie.headers.get('Cache-Control')).toBe('private, no-store');
    // A public read is the same for everyone: browsers ask again each time, a CDN may keep it for a
    // second, and it names its cache keys for the CDN's purges.
    const publicRead = 'public, max-age=0, must-revalidate, s-maxage=1, stale-while-revalidate=59';
    const visitor = await app.request('/web/api/friendshipLinks/getFriendshipLinks');
    expect(visitor.headers.get('Cache-Control')).toBe(publicRead);
    expect(visitor.headers.get('Surrogate-Key')?.split(' ')).toContain('api');
    const signedIn = await app.request('/web/api/friendshipLinks/getFriendshipLinks', {
      headers: { 'alliance-authenticate': 'a'.repeat(64) },
    });
    expect(signedIn.headers.get('Cache-Control')).toBe(publicRead);
  });
});
