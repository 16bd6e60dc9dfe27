import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { grantEditor } from '../../src/server/accounts/editor-role.ts';
import { listEditorActions } from '../../src/server/audit/editor-log.ts';
import * as changes from '../../src/server/content/changes.ts';
import { videos } from '../../src/server/db/schema/index.ts';
import { storage } from '../../src/server/storage/index.ts';
import { type AccountHarness, openAccountHarness } from '../helpers/account-harness.ts';

let h: AccountHarness;
let editorToken: string;
let readerToken: string;
let poster: Uint8Array;

const fixture = (name: string) =>
  new Uint8Array(fs.readFileSync(path.join(import.meta.dirname, '../fixtures/videos', name)));
const CAPTIONS = 'WEBVTT\n\n1\n00:00:00.000 --> 00:00:00.900\n一秒钟的色块\n';

beforeAll(async () => {
  h = await openAccountHarness();
  editorToken = await h.register('editor@example.com', 'ink and paper 2026');
  readerToken = await h.register('reader@example.com', 'ink and paper 2026');
  await grantEditor('editor@example.com', h.db);
  poster = new Uint8Array(
    await sharp({ create: { width: 64, height: 48, channels: 3, background: '#345' } })
      .png()
      .toBuffer(),
  );
});
afterAll(() => h.close());

interface Upload {
  title?: string;
  action?: string;
  video?: [Uint8Array, string] | undefined;
  poster?: Uint8Array | undefined;
  captions?: string | Uint8Array | undefined;
}

async function upload(fields: Upload, token: string | undefined = editorToken) {
  const form = new FormData();
  form.set('title', fields.title ?? '一秒钟的色块');
  form.set('summary', '测试用的短片');
  form.set('action', fields.action ?? 'publish');
  const [video, name] = 'video' in fields ? (fields.video ?? [undefined, '']) : [fixture('tiny.webm'), 'tiny.webm'];
  if (video) form.set('video', new Blob([video as Uint8Array<ArrayBuffer>]), name);
  const picture = 'poster' in fields ? fields.poster : poster;
  if (picture) form.set('poster', new Blob([picture as Uint8Array<ArrayBuffer>]), 'poster.png');
  const captions = 'captions' in fields ? fields.captions : CAPTIONS;
  if (captions) form.set('captions', new Blob([captions as BlobPart]), 'zh.vtt');
  // The form is sent as its bytes, as a socket delivers them: a body streamed from a FormData by
  // undici would fail when the server cancels it mid-way (as it does for a file over the limit).
  const encoded = new Response(form);
  const headers: Record<string, string> = {
    accept: 'application/json',
    'content-type': encoded.headers.get('content-type') ?? '',
  };
  if (token) headers['alliance-authenticate'] = token;
  const body = new Uint8Array(await encoded.arrayBuffer());
  const res = await h.app.request('/web/api/editor/video', { method: 'POST', headers, body });
  return {
    status: res.status,
    body: (await res.json()) as { code: string; message: string; data: { id: number } | null },
  };
}

const storedVideoFiles = async () => (await storage().list('videos')).sort();
const rowCount = async () => (await h.db.select().from(videos)).length;

describe('editor video upload', () => {
  test('needs a login, and the editor role', async () => {
    expect((await upload({}, '')).status).toBe(401);
    const reader = await upload({}, readerToken);
    expect(reader.status).toBe(403);
    expect(reader.body.message).toBe('只有编辑可以修改内容');
  });

  test('refuses files that are not what they claim, in Chinese, and stores nothing', async () => {
    const png = new Uint8Array(
      await sharp({ create: { width: 8, height: 8, channels: 3, background: '#c00' } })
        .png()
        .toBuffer(),
    );
    const webm = fixture('tiny.webm');
    const cases: Array<[Upload, RegExp]> = [
      [{ video: [png, 'clip.mp4'] }, /^文件不是 MP4 或 WebM 视频$/],
      [{ video: [webm.subarray(0, 9000), 'clip.webm'] }, /不完整/],
      [{ video: [fixture('tiny.mp4').subarray(0, 1500), 'clip.mp4'] }, /不完整/],
      [{ video: undefined }, /^请选择视频文件$/],
      [{ poster: new TextEncoder().encode('not a picture') }, /封面图无法读取/],
      [{ poster: undefined }, /^请选择封面图$/],
      [{ captions: '1\n00:00:01,000 --> 00:00:02,000\n你好\n' }, /WEBVTT/],
      [{ captions: undefined }, /字幕/],
      [{ title: '短' }, /标题至少 2 个字/],
    ];
    for (const [fields, message] of cases) {
      const res = await upload(fields);
      expect(res.status, String(message)).toBe(400);
      expect(res.body.message).toMatch(message);
    }
    expect(await rowCount()).toBe(0);
    expect(await storedVideoFiles()).toEqual([]);
  });

  test('a file over the limit is refused with 413 while it arrives', async () => {
    const saved = process.env['VIDEO_MAX_UPLOAD_MB'];
    process.env['VIDEO_MAX_UPLOAD_MB'] = '1';
    const { resetEnv } = await import('../../src/server/env.ts');
    resetEnv();
    try {
      const big = new Uint8Array(1024 * 1024 + 10);
      big.set(fixture('tiny.webm'));
      const res = await upload({ video: [big, 'big.webm'] });
      expect(res.status).toBe(413);
      expect(res.body.message).toMatch(/视频太大，最大只能上传 1 MB/);
    } finally {
      if (saved === undefined) delete process.env['VIDEO_MAX_UPLOAD_MB'];
      else process.env['VIDEO_MAX_UPLOAD_MB'] = saved;
      resetEnv();
    }
    expect(await storedVideoFiles()).toEqual([]);
  });

  test('stores a real video under content-addressed keys, with the duration read from it, and lists it', async () => {
    const purged = vi.spyOn(changes, 'contentChanged');
    const res = await upload({});
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('已发布');
    const id = res.body.data?.id;
    expect(purged).toHaveBeenCalledWith('video');
    purged.mockRestore();
    const detail = await h.call<{ durationMs: number; mime: string; src: string; poster: string; captions: string }>(
      'GET',
      `/web/api/video/${id}`,
    );
    expect(detail.body.data).toMatchObject({ durationMs: 940, mime: 'video/webm', width: 64, height: 48 });
    expect(detail.body.data.src).toMatch(/^\/files\/videos\/[0-9a-f]{24}\.webm$/);
    expect(detail.body.data.poster).toMatch(/^\/files\/videos\/posters\/[0-9a-f]{24}\.webp$/);
    expect(detail.body.data.captions).toMatch(/^\/files\/videos\/captions\/[0-9a-f]{24}\.vtt$/);
    // The poster was decoded and stored again as WebP.
    const stored = await storage().get(detail.body.data.poster.replace('/files/', ''));
    const chunks: Buffer[] = [];
    for await (const chunk of stored?.body ?? []) chunks.push(chunk as Buffer);
    expect((await sharp(Buffer.concat(chunks)).metadata()).format).toBe('webp');
    const list = await h.call<{ records: Array<{ id: number }> }>('GET', '/web/api/video/list');
    expect(list.body.data.records.map((video) => video.id)).toContain(id);
    const log = await listEditorActions({ current: 1, size: 5 }, h.db);
    expect(log.records[0]).toMatchObject({ action: 'video.publish', target: `video:${id}`, summary: '一秒钟的色块' });
  });

  test('an MP4 is accepted too', async () => {
    const res = await upload({ video: [fixture('tiny.mp4'), 'tiny.mp4'], title: 'MP4 色块', action: 'save' });
    expect(res.status).toBe(200);
    const detail = await h.call<{ mime: string; durationMs: number }>('GET', `/web/api/video/${res.body.data?.id}`);
    // A draft is not public.
    expect(detail.status).toBe(404);
    expect(detail.body.message).toBe('视频不存在或已下线');
  });

  test('edits, unpublishes and deletes, logging each, and deletion removes the files', async () => {
    const { body } = await upload({ title: '要删除的短片' });
    const id = body.data?.id;
    const edit = (fields: Record<string, string>, token = editorToken) =>
      h.call<null>('POST', `/web/api/editor/video/${id}`, fields, { token });
    expect((await edit({ title: '改过的标题', action: 'unpublish' }, readerToken)).status).toBe(403);
    const changed = await edit({ title: '改过的标题', summary: '', action: 'unpublish' });
    expect(changed.body.message).toBe('已撤回为草稿');
    expect((await h.call('GET', `/web/api/video/${id}`)).status).toBe(404);
    const refused = await edit({ title: '', action: 'save' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('标题至少 2 个字');

    const before = await storedVideoFiles();
    const removed = await h.call<null>('POST', `/web/api/editor/video/${id}/delete`, undefined, { token: editorToken });
    expect(removed.body.message).toBe('视频已删除');
    // The same bytes were uploaded before (the first test's video), so those files stay for it.
    expect(await storedVideoFiles()).toEqual(before);
    expect((await h.call('POST', `/web/api/editor/video/${id}/delete`, undefined, { token: editorToken })).status).toBe(
      404,
    );
    const log = await listEditorActions({ current: 1, size: 3 }, h.db);
    expect(log.records.map((record) => record.action)).toEqual(['video.delete', 'video.unpublish', 'video.publish']);
  });

  test('deleting the last video that names a file removes it from storage', async () => {
    const rows = await h.db.select().from(videos);
    for (const row of rows) {
      await h.call('POST', `/web/api/editor/video/${row.id}/delete`, undefined, { token: editorToken });
    }
    expect(await storedVideoFiles()).toEqual([]);
  });
});
