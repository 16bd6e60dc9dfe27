import { eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { createApp } from '../../src/server/app.ts';
import { systemClock } from '../../src/server/auth/clock.ts';
import { createSession } from '../../src/server/auth/sessions.ts';
import { accounts } from '../../src/server/db/schema/index.ts';
import { apiOperations } from '../../src/server/http/openapi.ts';
import { notify } from '../../src/server/messages/notifications.ts';
import { closeToolsPool } from '../../src/server/tools/runtime.ts';
import { closeSubsetPool } from '../../src/server/webfont/subset.ts';
import { insertAccount, type LibraryFixture, openFixtureLibrary } from '../helpers/font-library.ts';

// A list filtered by a choice left blank lists everything, as a form whose select says “全部”
// sends it: `notifyList?current=1&size=10&type=` is the list of every message. The list calls
// that take a choice are read from the app itself, so a new one cannot be left out of the table.

let library: LibraryFixture;
let app: Hono;
let token: string;

beforeAll(async () => {
  library = await openFixtureLibrary('list-filters');
  app = createApp();
  const editor = await insertAccount(library.db, 'filters-editor@example.com');
  await library.db.update(accounts).set({ role: 'editor' }).where(eq(accounts.id, editor));
  ({ token } = await createSession(library.db, editor, { clock: systemClock, ttlSeconds: 3600 }));
  await notify([editor], { type: 'system', title: '系统通知一条' });
  await notify([editor], { type: 'review', title: '审核进度一条' });
});

afterAll(async () => {
  await closeToolsPool();
  await closeSubsetPool();
  await library?.close();
});

/** Each list call that takes a choice: where it is, the choice, and what else it needs. */
const LISTS: Array<{ method: 'GET' | 'POST'; path: string; choice: string; with?: Record<string, string> }> = [
  { method: 'GET', path: '/api/v1/web/notifyList', choice: 'type' },
  { method: 'GET', path: '/api/v1/web/notifyList', choice: 'unread' },
  { method: 'GET', path: '/web/api/fontOverride/getFontList', choice: 'weights' },
  { method: 'GET', path: '/web/api/fontOverride/getFontList', choice: 'commercialFree' },
  { method: 'GET', path: '/web/api/fontOverride/getFontList', choice: 'sort' },
  { method: 'GET', path: '/web/api/fontOverride/getFontList', choice: 'category' },
  { method: 'GET', path: '/web/api/font/glyphs', choice: 'set', with: { gno: 'noto-sans-sc' } },
  { method: 'GET', path: '/web/api/web-findAll/getByParameter', choice: 'type', with: { keyword: '黑体' } },
  { method: 'GET', path: '/web/api/web-wenzhang/selectPage', choice: 'type' },
  { method: 'GET', path: '/web/api/web-wenzhang/selectPage', choice: 'tagId' },
  { method: 'GET', path: '/web/api/shufa-baike/selectPage', choice: 'tagId' },
  { method: 'GET', path: '/web/api/web-font-collection/selectPage', choice: 'type' },
  { method: 'POST', path: '/web/api/contribute/queryContributeFontsByAccountIdPage', choice: 'status' },
  { method: 'GET', path: '/web/api/review/queue', choice: 'filter' },
  { method: 'GET', path: '/web/api/dingzhi/queue', choice: 'filter' },
  { method: 'GET', path: '/tools/api/word-cloud/template-types', choice: 'type' },
  { method: 'GET', path: '/tools/api/word-cloud/images', choice: 'typeId' },
];

type JsonSchema = { properties?: Record<string, JsonSchema>; enum?: unknown[]; anyOf?: JsonSchema[] };
const isChoice = (schema: JsonSchema | undefined): boolean =>
  Boolean(schema?.enum) || Boolean(schema?.anyOf?.some((option) => option.enum));

async function ask(list: (typeof LISTS)[number], choice: string | undefined) {
  const params = { current: '1', size: '10', ...list.with, ...(choice === undefined ? {} : { [list.choice]: choice }) };
  const headers: Record<string, string> = { 'alliance-authenticate': token };
  const res =
    list.method === 'GET'
      ? await app.request(`${list.path}?${new URLSearchParams(params)}`, { headers })
      : await app.request(list.path, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify(params),
        });
  return { status: res.status, body: (await res.json()) as { message: string; data: unknown } };
}

describe('a blank choice means all', () => {
  test('every list call of the app that takes a choice is in the table', () => {
    const found = new Set<string>();
    for (const operation of apiOperations(app)) {
      for (const validation of operation.validations) {
        if (validation.target !== 'query' && validation.target !== 'json') continue;
        const json = z.toJSONSchema(validation.schema, { io: 'output', unrepresentable: 'any' }) as JsonSchema;
        const properties = json.properties ?? {};
        // A list: it pages (current and size), or it is a list call named in the table.
        const paged = 'current' in properties && 'size' in properties;
        for (const [name, schema] of Object.entries(properties)) {
          if (paged && isChoice(schema)) found.add(`${operation.method} ${operation.path} ${name}`);
        }
      }
    }
    const table = new Set(LISTS.map((list) => `${list.method} ${list.path} ${list.choice}`));
    expect([...found].filter((entry) => !table.has(entry))).toEqual([]);
  });

  test.each(LISTS)('$method $path with $choice blank answers as without it', async (list) => {
    const blank = await ask(list, '');
    expect(blank.status, blank.body.message).toBe(200);
    const without = await ask(list, undefined);
    expect(without.status).toBe(200);
    expect(blank.body.data).toEqual(without.body.data);
  });

  test('the messages listed with a blank type are all of them, and marking with a blank type marks them all', async () => {
    const answer = await ask(LISTS[0] as (typeof LISTS)[number], '');
    expect((answer.body.data as { total: number }).total).toBe(2);
    const marked = await ask({ method: 'POST', path: '/api/v1/web/notify/read-all', choice: 'type' }, '');
    expect(marked.status).toBe(200);
    const unread = await ask({ method: 'GET', path: '/api/v1/web/notifyList', choice: 'unread' }, 'true');
    expect((unread.body.data as { total: number }).total).toBe(0);
  });
});
