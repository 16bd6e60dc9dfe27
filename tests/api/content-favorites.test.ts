import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../src/server/app.ts';
import { systemClock } from '../../src/server/auth/clock.ts';
import { createSession } from '../../src/server/auth/sessions.ts';
import { accounts, articles, favorites, fontGroups } from '../../src/server/db/schema/index.ts';
import { type ContentSuite, openContentSuite } from '../helpers/content.ts';

let suite: ContentSuite;
let app: ReturnType<typeof createApp>;
let accountId: number;
let token = '';
let albumId: number;
let articleId: number;

async function call(method: 'GET' | 'POST', path: string, body?: unknown, signedIn = true) {
  const res = await app.request(`/web/api${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...(signedIn ? { 'alliance-authenticate': token } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: answers are read field by field.
  return { status: res.status, body: (await res.json()) as { code: string; message: string; data: any } };
}

beforeAll(async () => {
  suite = await openContentSuite();
  const db = suite.database.db;
  const [account] = await db.insert(accounts).values({ mobile: '13900000000' }).returning();
  accountId = account?.id ?? 0;
  const [album] = await db.select().from(fontGroups).where(eq(fontGroups.kind, 'album')).limit(1);
  albumId = album?.id ?? 0;
  const [article] = await db.select().from(articles).where(eq(articles.kind, 'baike')).limit(1);
  articleId = article?.id ?? 0;
  token = (await createSession(db, accountId, { clock: systemClock, ttlSeconds: 3600 })).token;
  app = createApp();
});
afterAll(async () => suite.close());

describe('favourite albums and articles', () => {
  test('answer 401 to visitors', async () => {
    for (const [method, path] of [
      ['GET', '/collection/getCollByUser'],
      ['GET', '/favorite/getArticleByUser'],
      ['POST', '/collection/addColl'],
      ['POST', '/collection/addArt'],
    ] as const) {
      const { status, body } = await call(method, path, method === 'POST' ? { id: 1 } : undefined, false);
      expect(status).toBe(401);
      expect(body.message).toBe('请先登录');
    }
  });

  test('keep an album once however often it is added, and let it go', async () => {
    expect((await call('POST', '/collection/addColl', { id: albumId })).body.message).toBe('收藏成功');
    expect((await call('POST', '/favorite/addColl', { id: albumId })).status).toBe(200);
    const rows = await suite.database.db
      .select()
      .from(favorites)
      .where(and(eq(favorites.accountId, accountId), eq(favorites.target, 'group')));
    expect(rows).toHaveLength(1);
    const list = await call('GET', '/collection/getCollByUser');
    expect(list.body.data).toEqual([expect.objectContaining({ id: albumId, type: 'album', url: `/album/${albumId}` })]);
    expect((await call('POST', '/collection/deleteColl', { id: albumId })).status).toBe(200);
    expect((await call('GET', '/collection/getCollByUser')).body.data).toEqual([]);
    expect((await call('POST', '/collection/deleteColl', { id: albumId })).status).toBe(200);
  });

  test('keep an article once and list it with its address', async () => {
    await call('POST', '/collection/addArt', { id: articleId });
    await call('POST', '/collection/addArt', { id: articleId });
    const rows = await suite.database.db
      .select()
      .from(favorites)
      .where(and(eq(favorites.accountId, accountId), eq(favorites.target, 'article')));
    expect(rows).toHaveLength(1);
    const list = await call('GET', '/favorite/getArticleByUser');
    expect(list.body.data).toEqual([
      expect.objectContaining({ id: articleId, kind: 'baike', url: `/baike/${articleId}` }),
    ]);
    await call('POST', '/favorite/deleteArt', { id: articleId });
    expect((await call('GET', '/favorite/getArticleByUser')).body.data).toEqual([]);
  });

  test('refuse unknown or unpublished items and malformed ids', async () => {
    expect((await call('POST', '/collection/addColl', { id: 999_999 })).status).toBe(404);
    await suite.database.db.update(articles).set({ status: 'draft' }).where(eq(articles.id, articleId));
    try {
      const draft = await call('POST', '/collection/addArt', { id: articleId });
      expect(draft.status).toBe(404);
      expect(draft.body.message).toBe('文章不存在或已下架');
    } finally {
      await suite.database.db.update(articles).set({ status: 'published' }).where(eq(articles.id, articleId));
    }
    const malformed = await call('POST', '/collection/addArt', { id: 'abc' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toContain('文章编号（id）');
  });
});
