// Public reads come from the answer cache; a write that changes them is visible in the very next
// read once the write has answered.
import zlib from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { grantEditor } from '../../src/server/accounts/editor-role.ts';
import { flushArticleViews } from '../../src/server/content/articles.ts';
import { answerCache } from '../../src/server/http/answer-cache.ts';
import { type AccountHarness, openAccountHarness } from '../helpers/account-harness.ts';
import { queryRows } from '../helpers/database.ts';

let h: AccountHarness;
let editorToken: string;

beforeAll(async () => {
  h = await openAccountHarness();
  editorToken = await h.register('cache-editor@example.com', 'ink and paper 2026');
  await grantEditor('cache-editor@example.com', h.db);
  answerCache().purgeAll();
});
afterAll(() => h.close());

async function editArticle(id: number | 'new', title: string, action: 'save' | 'publish' | 'unpublish') {
  const form = new FormData();
  for (const [key, value] of Object.entries({ kind: 'news', title, summary: '摘要', body: '正文。', action })) {
    form.set(key, value);
  }
  const res = await h.app.request(`/web/api/editor/article/${id}`, {
    method: 'POST',
    headers: { accept: 'application/json', 'alliance-authenticate': editorToken },
    body: form,
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { id: number } }).data.id;
}

async function read<T>(url: string) {
  const res = await h.app.request(url, { headers: { 'accept-encoding': 'br' } });
  const bytes = Buffer.from(await res.arrayBuffer());
  const encoded = res.headers.get('Content-Encoding') === 'br';
  const body = JSON.parse((encoded ? zlib.brotliDecompressSync(bytes) : bytes).toString()) as { data: T };
  return { res, data: body.data, hit: res.headers.get('X-Answer-Cache') === 'HIT' };
}

const LIST = '/web/api/web-wenzhang/selectPage?type=news&current=1&size=10';
type List = { records: Array<{ id: number; title: string }> };

describe('cached public reads', () => {
  test('are sent with Brotli, an ETag and Vary, and come from the cache the second time', async () => {
    const first = await read<List>(LIST);
    expect(first.res.headers.get('Content-Encoding')).toBe('br');
    expect(first.res.headers.get('Vary')).toBe('Accept-Encoding');
    expect(first.hit).toBe(false);
    const second = await read<List>(LIST);
    expect(second.hit).toBe(true);
    expect(second.res.headers.get('ETag')).toBe(first.res.headers.get('ETag'));
    const notModified = await h.app.request(LIST, {
      headers: { 'if-none-match': first.res.headers.get('ETag') ?? '' },
    });
    expect(notModified.status).toBe(304);
  });

  test('show a publication, an edit and a withdrawal in the first read after the write answers', async () => {
    await read<List>(LIST);
    expect((await read<List>(LIST)).hit).toBe(true);

    const id = await editArticle('new', '缓存之后发布的文章', 'publish');
    const published = await read<List>(LIST);
    expect(published.hit).toBe(false);
    expect(published.data.records.map((item) => item.title)).toContain('缓存之后发布的文章');

    const detailUrl = `/web/api/web-wenzhang/getDetailById?id=${id}`;
    await read(detailUrl);
    expect((await read(detailUrl)).hit).toBe(true);
    await editArticle(id, '改过标题的文章', 'save');
    expect((await read<{ title: string }>(detailUrl)).data.title).toBe('改过标题的文章');
    expect((await read<List>(LIST)).data.records.map((item) => item.title)).toContain('改过标题的文章');

    await editArticle(id, '改过标题的文章', 'unpublish');
    expect((await read<List>(LIST)).data.records.map((item) => item.id)).not.toContain(id);
    expect((await h.app.request(detailUrl)).status).toBe(404);
  });

  test('still count every reader of an article answered from the cache', async () => {
    const id = await editArticle('new', '数阅读量的文章', 'publish');
    const detailUrl = `/web/api/web-wenzhang/getDetailById?id=${id}`;
    await flushArticleViews();
    for (let i = 0; i < 3; i++) await read(detailUrl);
    expect((await read(detailUrl)).hit).toBe(true);
    await flushArticleViews();
    const [row] = await queryRows<{ views: number }>(h.db, sql`select views from articles where id = ${id}`);
    expect(Number(row?.views)).toBe(4);
  });
});
