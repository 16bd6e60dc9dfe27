import fs from 'node:fs';
import { eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_REPLAYED_HEADER, IDEMPOTENT_WRITES } from '../../src/contract/idempotency.ts';
import { systemClock } from '../../src/server/auth/clock.ts';
import { createSession } from '../../src/server/auth/sessions.ts';
import { accounts, favoriteGroups, idempotencyKeys, jobs, submissions } from '../../src/server/db/schema/index.ts';
import { resetEnv } from '../../src/server/env.ts';
import { sweepIdempotencyKeys } from '../../src/server/http/idempotency.ts';
import type { LibraryFixture } from '../helpers/font-library.ts';
import { closeToolsApp, openToolsApp, uploadFont } from '../helpers/tools.ts';

// A write sent again with the key of its first sending (the browser does so once after a network
// error) is done once: the second sending gets the first answer. On PostgreSQL and PGlite alike.

const TTF = new Uint8Array(fs.readFileSync('tests/fixtures/tools/NotoSansSC-Features.ttf'));
let library: LibraryFixture;
let app: Hono;
let token = '';
let accountId = 0;

beforeAll(async () => {
  process.env['TOOLS_RUN_JOBS'] = 'false';
  resetEnv();
  ({ library, app } = await openToolsApp('idempotency'));
  const [account] = await library.db.insert(accounts).values({ email: 'keys@example.com' }).returning();
  accountId = account?.id ?? 0;
  token = (await createSession(library.db, accountId, { clock: systemClock, ttlSeconds: 3600 })).token;
}, 120_000);
afterAll(async () => {
  await closeToolsApp(library);
  delete process.env['TOOLS_RUN_JOBS'];
  resetEnv();
});

function send(path: string, body: unknown, key?: string, signedIn = true) {
  return app.request(path, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(signedIn ? { 'alliance-authenticate': token } : {}),
      ...(key ? { [IDEMPOTENCY_HEADER]: key } : {}),
    },
    body: JSON.stringify(body),
  });
}

const groupsNamed = async (name: string) =>
  (await library.db.select().from(favoriteGroups).where(eq(favoriteGroups.accountId, accountId))).filter(
    (group) => group.name === name,
  );

describe('writes with an idempotency key', () => {
  test('a favourites folder sent twice with one key is made once, and the second sending gets the first answer', async () => {
    const key = crypto.randomUUID();
    const first = await send('/web/api/collection/add', { name: '宋体' }, key);
    expect(first.status).toBe(200);
    const firstBody = await first.text();
    const second = await send('/web/api/collection/add', { name: '宋体' }, key);
    expect(second.status).toBe(200);
    expect(second.headers.get(IDEMPOTENCY_REPLAYED_HEADER)).toBe('true');
    expect(await second.text()).toBe(firstBody);
    expect(await groupsNamed('宋体')).toHaveLength(1);
    // Without a key, or with another, each sending is a write of its own.
    expect((await send('/web/api/collection/add', { name: '宋体' })).status).toBe(200);
    expect((await send('/web/api/collection/add', { name: '宋体' }, crypto.randomUUID())).status).toBe(200);
    expect(await groupsNamed('宋体')).toHaveLength(3);
  });

  test('a submission saved twice with one key is one draft, with its history written once', async () => {
    const key = crypto.randomUUID();
    const body = { fields: { fontName: '一次稿体' } };
    const first = await send('/web/api/submission/saveSubmission', body, key);
    expect(first.status).toBe(200);
    const again = await send('/web/api/submission/saveSubmission', body, key);
    expect(again.headers.get(IDEMPOTENCY_REPLAYED_HEADER)).toBe('true');
    const drafts = await library.db.select().from(submissions).where(eq(submissions.fontName, '一次稿体'));
    expect(drafts).toHaveLength(1);
    const uid = (JSON.parse(await first.text()) as { data: { uid: string } }).data.uid;
    expect(drafts[0]?.uid).toBe(uid);
  });

  test('sendings of one key at the same moment make one job', async () => {
    const upload = await uploadFont(app, TTF, 'source.ttf');
    const body = { source: { fileId: upload.data.fileId }, formats: ['woff2'] };
    const key = crypto.randomUUID();
    const answers = await Promise.all([1, 2, 3].map(() => send('/tools/api/convert', body, key, false)));
    const texts = await Promise.all(answers.map((answer) => answer.text()));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(new Set(texts).size).toBe(1);
    const { jobId } = (JSON.parse(texts[0] ?? '{}') as { data: { jobId: string } }).data;
    expect(await library.db.select().from(jobs).where(eq(jobs.id, jobId))).toHaveLength(1);
    expect(answers.filter((answer) => answer.headers.get(IDEMPOTENCY_REPLAYED_HEADER) === 'true')).toHaveLength(2);
  });

  test('a key sent again with another request is refused, with a message to show', async () => {
    const key = crypto.randomUUID();
    expect((await send('/web/api/collection/add', { name: '楷体' }, key)).status).toBe(200);
    const other = await send('/web/api/collection/add', { name: '黑体' }, key);
    expect(other.status).toBe(422);
    expect(((await other.json()) as { message: string }).message).toMatch(/请求编号/);
    expect(await groupsNamed('黑体')).toHaveLength(0);
  });

  test('a refused write is not kept: sent again once the reason is gone, it is done', async () => {
    const key = crypto.randomUUID();
    const refused = await send('/web/api/collection/add', { name: '行书' }, key, false);
    expect(refused.status).toBe(401);
    const signedIn = await send('/web/api/collection/add', { name: '行书' }, key);
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.get(IDEMPOTENCY_REPLAYED_HEADER)).toBeNull();
    expect(await groupsNamed('行书')).toHaveLength(1);
  });

  test('a malformed key is refused in Chinese and changes nothing', async () => {
    const answer = await send('/web/api/collection/add', { name: '隶书' }, 'bad key!');
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { message: string }).message).toBe('请求编号格式不正确，请刷新页面后重试');
    expect(await groupsNamed('隶书')).toHaveLength(0);
  });

  test('every write the contract lists is a route of the API', async () => {
    for (const write of IDEMPOTENT_WRITES) {
      const [method = '', path = ''] = write.split(' ');
      const answer = await app.request(path, { method, headers: { 'Content-Type': 'application/json' }, body: '{}' });
      expect(answer.status, write).not.toBe(404);
      expect(answer.status, write).not.toBe(405);
    }
  });

  test('kept answers go after a day', async () => {
    const kept = await library.db.select().from(idempotencyKeys);
    expect(kept.length).toBeGreaterThan(0);
    expect(await sweepIdempotencyKeys(new Date())).toBe(0);
    expect(await sweepIdempotencyKeys(new Date(Date.now() + 25 * 60 * 60_000))).toBe(kept.length);
  });
});
