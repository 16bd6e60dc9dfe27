import { eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../src/server/app.ts';
import { systemClock } from '../../src/server/auth/clock.ts';
import { createSession } from '../../src/server/auth/sessions.ts';
import { bodyPolicies } from '../../src/server/body-limits.ts';
import { accounts, notifications } from '../../src/server/db/schema/index.ts';
import { BUFFERED_BUDGET_BYTES, bufferedBodyBytes } from '../../src/server/http/body-limit.ts';
import { apiOperations } from '../../src/server/http/openapi.ts';
import { notify } from '../../src/server/messages/notifications.ts';
import { closeToolsPool } from '../../src/server/tools/runtime.ts';
import { closeSubsetPool } from '../../src/server/webfont/subset.ts';
import { insertAccount, type LibraryFixture, openFixtureLibrary } from '../helpers/font-library.ts';

// The body gate (http/body-limit.ts, limits in body-limits.ts): every body, whatever its type,
// capped while it is read, never read before the route asks for it, and multipart forms sent to a
// call that takes no file read into their small fields alone.

let library: LibraryFixture;
let app: Hono;
let reader: number;
let token: string;

beforeAll(async () => {
  library = await openFixtureLibrary('request-bodies');
  app = createApp();
  reader = await insertAccount(library.db, 'bodies-reader@example.com');
  await library.db.update(accounts).set({ role: 'editor' }).where(eq(accounts.id, reader));
  token = (await createSession(library.db, reader, { clock: systemClock, ttlSeconds: 3600 })).token;
}, 60_000);

afterAll(async () => {
  await closeToolsPool();
  await closeSubsetPool();
  await library?.close();
});

const MB = 1 << 20;

/** A body that would go on for `total` bytes (one field of a multipart form), counting what is read of it. */
function endlessForm(total: number, boundary = 'b') {
  const read = { bytes: 0 };
  const chunk = new Uint8Array(64 * 1024).fill(0x61);
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const head = new TextEncoder().encode(`--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\n`);
      read.bytes += head.byteLength;
      controller.enqueue(head);
    },
    pull(controller) {
      if (sent >= total) {
        controller.enqueue(new TextEncoder().encode(`\r\n--${boundary}--\r\n`));
        controller.close();
        return;
      }
      sent += chunk.byteLength;
      read.bytes += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { body, read };
}

function post(path: string, init: { body: BodyInit; type: string; length?: number; login?: string }) {
  const headers: Record<string, string> = { 'content-type': init.type };
  if (init.length !== undefined) headers['content-length'] = String(init.length);
  if (init.login) headers['alliance-authenticate'] = init.login;
  return Promise.resolve(
    app.request(path, { method: 'POST', headers, body: init.body, duplex: 'half' } as RequestInit),
  );
}

const FORM = 'multipart/form-data; boundary=b';

describe('the body gate', () => {
  test('lists a body limit for every route that takes a body, and no route that does not exist', () => {
    const routes = apiOperations(app)
      .filter((operation) => !['GET', 'HEAD'].includes(operation.method))
      .map((operation) => `${operation.method} ${operation.path}`);
    expect(Object.keys(bodyPolicies()).sort()).toEqual([...new Set(routes)].sort());
  });

  test('a visitor is answered 401 by a call that needs a login without a byte of a 300 MB form being read', async () => {
    for (const path of ['/web/api/dingzhi/move', '/api/v1/web/notify/read-all', '/web/api/signing']) {
      const { body, read } = endlessForm(300 * MB);
      const answer = await post(path, { body, type: FORM });
      expect(answer.status, path).toBe(401);
      // Only what the test itself queued before the first read (the form's first part header).
      expect(read.bytes, path).toBeLessThan(200);
    }
  });

  test('every call that needs a login answers a visitor 401 without reading what was sent, form or JSON', async () => {
    const refused = new Set<string>();
    for (const route of Object.keys(bodyPolicies())) {
      const [method = 'POST', pattern = ''] = route.split(' ');
      if (pattern.startsWith('/files/')) continue;
      const path = pattern.replace(/:(\w+)(\{[^}]*\})?/g, '1');
      // A call that refuses a visitor's empty JSON with 401 needs a login: it must refuse a large
      // body the same way, before validating or reading it.
      const empty = await app.request(path, { method, headers: { 'content-type': 'application/json' }, body: '{}' });
      for (const type of [FORM, 'application/json']) {
        const { body, read } = endlessForm(300 * MB);
        const answer = await app.request(path, {
          method,
          headers: { 'content-type': type },
          body,
          duplex: 'half',
        } as RequestInit);
        if (empty.status === 401) expect(answer.status, `${route} ${type}`).toBe(401);
        if (answer.status !== 401) continue;
        refused.add(route);
        expect(read.bytes, `${route} ${type}`).toBeLessThan(200);
      }
    }
    // The calls that need a login are most of those that take a body.
    expect(refused.size).toBeGreaterThan(40);
  });

  test('a signed-in caller’s 300 MB form field is refused with 413 after its first few kilobytes, changing nothing', async () => {
    await notify([reader], { type: 'system', title: '通知', body: '一条未读消息' });
    for (const [path, limit] of [
      ['/web/api/dingzhi/move', '16 KB'],
      ['/api/v1/web/notify/read-all', '4 KB'],
      ['/api/v1/web/notify/settings', '4 KB'],
    ] as const) {
      const { body, read } = endlessForm(300 * MB);
      const answer = await post(path, { body, type: FORM, login: token });
      expect(answer.status, path).toBe(413);
      expect(((await answer.json()) as { message: string }).message).toBe(`请求内容过大，这个接口最多接受 ${limit}`);
      expect(read.bytes, path).toBeLessThan(256 * 1024);
    }
    const unread = await library.db.select().from(notifications).where(eq(notifications.accountId, reader));
    expect(unread.every((row) => row.readAt === null)).toBe(true);
  });

  test('a declared length over the limit is refused before anything is read, for every type', async () => {
    for (const type of [FORM, 'application/json', 'application/x-www-form-urlencoded', 'text/plain']) {
      const { body, read } = endlessForm(300 * MB);
      const answer = await post('/web/api/login', { body, type, length: 300 * MB });
      expect(answer.status, type).toBe(413);
      expect(read.bytes, type).toBeLessThan(200);
    }
  });

  test('a form sent to a call that takes no file gives its fields, and a file in it is refused', async () => {
    const form = new FormData();
    form.set('emailCopies', 'true');
    const fields = await app.request('/api/v1/web/notify/settings', {
      method: 'POST',
      headers: { 'alliance-authenticate': token },
      body: form,
    });
    // The field arrived and was acted on.
    expect(((await fields.json()) as { message: string }).message).toBe('已打开邮件提醒');
    const withFile = new FormData();
    withFile.set('type', 'system');
    withFile.set('file', new Blob(['not a field']), 'note.txt');
    const refused = await app.request('/api/v1/web/notify/read-all', {
      method: 'POST',
      headers: { 'alliance-authenticate': token },
      body: withFile,
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { message: string }).message).toBe('这个接口只接受表单字段，不接受文件');
  });

  test('buffered bodies share one memory budget: past it a large body is answered 503 at once', async () => {
    const stalled: Array<ReadableStreamDefaultController<Uint8Array>> = [];
    const pending: Promise<Response>[] = [];
    const size = 1000 * 1024;
    const count = Math.floor(BUFFERED_BUDGET_BYTES / size);
    for (let i = 0; i < count; i++) {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          stalled.push(controller);
          controller.enqueue(new TextEncoder().encode('[{"gno":"zcool-kuaile","text":"'));
        },
      });
      pending.push(post('/webfont/http', { body, type: 'application/json', length: size }));
    }
    await expect.poll(() => bufferedBodyBytes()).toBe(count * size);
    const refused = await post('/webfont/http', { body: '[]', type: 'application/json', length: size });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    // Small bodies are not held to the budget.
    expect((await post('/webfont/http', { body: '[]', type: 'application/json' })).status).toBe(400);
    for (const controller of stalled) controller.error(new Error('client went away'));
    const ended = await Promise.all(pending);
    expect(ended.map((answer) => answer.status)).toEqual(Array(count).fill(400));
    expect(bufferedBodyBytes()).toBe(0);
  });
});
