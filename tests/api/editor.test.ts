import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { grantEditor } from '../../src/server/accounts/editor-role.ts';
import { listEditorActions } from '../../src/server/audit/editor-log.ts';
import * as changes from '../../src/server/content/changes.ts';
import { type AccountHarness, openAccountHarness } from '../helpers/account-harness.ts';

let h: AccountHarness;
let editorToken: string;
let readerToken: string;

beforeAll(async () => {
  h = await openAccountHarness();
  editorToken = await h.register('editor@example.com', 'ink and paper 2026');
  readerToken = await h.register('reader@example.com', 'ink and paper 2026');
  await grantEditor('editor@example.com', h.db);
});
afterAll(() => h.close());

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.set(key, value);
  return data;
}

async function submit(path: string, fields: Record<string, string>, token?: string, accept = 'application/json') {
  const headers: Record<string, string> = { accept };
  if (token) headers['alliance-authenticate'] = token;
  const res = await h.app.request(`/web/api/editor/${path}`, { method: 'POST', headers, body: form(fields) });
  return res;
}

const ARTICLE = {
  kind: 'news',
  title: '新字体上线',
  summary: '一款新的开源字体',
  body: '## 简介\n\n正文。',
  action: 'save',
};

describe('POST /web/api/editor/:type/:id', () => {
  test('needs a login, and the editor role', async () => {
    expect((await submit('article/new', ARTICLE)).status).toBe(401);
    const reader = await submit('article/new', ARTICLE, readerToken);
    expect(reader.status).toBe(403);
    expect(((await reader.json()) as { message: string }).message).toBe('只有编辑可以修改内容');
  });

  test('saves a new article, publishes it and purges the pages that show it', async () => {
    const purged = vi.spyOn(changes, 'contentChanged');
    const saved = await submit('article/new', ARTICLE, editorToken);
    expect(saved.status).toBe(200);
    const { data } = (await saved.json()) as { data: { id: number } };
    expect(data.id).toBeGreaterThan(0);
    const published = await submit(`article/${data.id}`, { ...ARTICLE, action: 'publish' }, editorToken);
    expect(((await published.json()) as { message: string }).message).toBe('已发布');
    expect(purged).toHaveBeenCalledWith('news');
    purged.mockRestore();
    const read = await h.app.request(`/web/api/web-wenzhang/getDetailById?id=${data.id}`);
    expect(((await read.json()) as { data: { title: string } }).data.title).toBe('新字体上线');
    // The editing area's log says who did it.
    const log = await listEditorActions({ current: 1, size: 10 }, h.db);
    expect(log.records.slice(0, 2).map((record) => [record.action, record.target, record.summary])).toEqual([
      ['article.publish', `article:${data.id}`, '新字体上线'],
      ['article.save', `article:${data.id}`, '新字体上线'],
    ]);
  });

  test('refuses a form with errors field by field and writes nothing', async () => {
    const res = await submit('article/new', { ...ARTICLE, title: '' }, editorToken);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { message: string; data: { errors: Record<string, string> } };
    expect(body.data.errors['title']).toMatch(/标题/);
    expect(body.message).toBe(body.data.errors['title']);
  });

  test('a form posted without script is sent back to the editor page', async () => {
    const saved = await submit('article/new', ARTICLE, editorToken, 'text/html');
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toMatch(/^\/editor\/article\/\d+\?done=save$/);
    const refused = await submit('article/new', { ...ARTICLE, title: '' }, editorToken, 'text/html');
    expect(refused.headers.get('location')).toMatch(/^\/editor\/article\/new\?error=/);
  });

  test('answers 404 for an unknown type or item, and 400 for an unknown action', async () => {
    expect((await submit('poem/new', ARTICLE, editorToken)).status).toBe(400);
    expect((await submit('article/999999', ARTICLE, editorToken)).status).toBe(404);
    expect((await submit('article/new', { ...ARTICLE, action: 'delete' }, editorToken)).status).toBe(400);
  });
});

describe('POST /web/api/editor/rebuild', () => {
  test('empties the page cache for an editor only', async () => {
    expect((await h.app.request('/web/api/editor/rebuild', { method: 'POST' })).status).toBe(401);
    const res = await h.app.request('/web/api/editor/rebuild', {
      method: 'POST',
      headers: { 'alliance-authenticate': editorToken, accept: 'text/html' },
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/editor?done=rebuild');
  });
});

async function messagesOf(token: string, type: string) {
  const res = await h.app.request(`/api/v1/web/notifyList?type=${type}`, {
    headers: { 'alliance-authenticate': token },
  });
  return ((await res.json()) as { data: { records: Array<{ title: string; body: string; link: string | null }> } }).data
    .records;
}

describe('contact replies and announcements', () => {
  test('an editor’s reply reaches the writer as a message; readers cannot reply', async () => {
    const saved = await h.app.request('/web/api/messageBoard/save', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'alliance-authenticate': readerToken },
      body: JSON.stringify({ name: '读者', contact: 'reader@example.com', content: '字体可以用在包装上吗？' }),
    });
    expect(saved.status).toBe(200);
    const { data } = (await saved.json()) as { data: { id: number } };

    expect((await submit(`messageBoard/${data.id}/reply`, { body: '可以。' }, readerToken)).status).toBe(403);
    const short = await submit(`messageBoard/${data.id}/reply`, { body: '好' }, editorToken);
    expect(short.status).toBe(400);
    expect(((await short.json()) as { message: string }).message).toBe('回复至少 2 个字');
    expect((await submit('messageBoard/99999999/reply', { body: '可以商用。' }, editorToken)).status).toBe(404);

    const replied = await submit(`messageBoard/${data.id}/reply`, { body: '可以商用，无需另行授权。' }, editorToken);
    expect(replied.status).toBe(200);
    const [message] = await messagesOf(readerToken, 'reply');
    expect(message).toMatchObject({ title: '你的留言有了回复', link: `/user/contact#message-${data.id}` });
    expect(message?.body).toContain('可以商用，无需另行授权。');

    const page = await submit(`messageBoard/${data.id}/reply`, { body: '补充一句。' }, editorToken, 'text/html');
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe(
      `/editor?tab=messages&done=${encodeURIComponent('回复已发送')}#message-${data.id}`,
    );
  });

  test('an announcement reaches every account; only editors may post one, and only with a link of this site', async () => {
    const fields = { title: '年终字体节', body: '12 月 6 日晚线上分享会。', link: '/news/1' };
    expect((await submit('announcement', fields, readerToken)).status).toBe(403);
    const elsewhere = await submit('announcement', { ...fields, link: 'https://evil.example/' }, editorToken);
    expect(elsewhere.status).toBe(400);
    expect(((await elsewhere.json()) as { message: string }).message).toBe('链接只能是本站的路径，例如 /news/12');
    expect(await messagesOf(readerToken, 'announcement')).toEqual([]);

    const sent = await submit('announcement', fields, editorToken);
    expect(sent.status).toBe(200);
    expect(((await sent.json()) as { data: { recipients: number } }).data.recipients).toBe(2);
    for (const token of [readerToken, editorToken]) {
      expect(await messagesOf(token, 'announcement')).toEqual([
        expect.objectContaining({ title: '年终字体节', link: '/news/1' }),
      ]);
    }
  });
});
