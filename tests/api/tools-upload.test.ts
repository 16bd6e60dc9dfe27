import fs from 'node:fs';
import zlib from 'node:zlib';
import type { Hono } from 'hono';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { encodeWoff } from '../../src/server/engine/woff.ts';
import { call, type LibraryFixture } from '../helpers/font-library.ts';
import { closeToolsApp, openToolsApp, storedFiles, uploadFont, waitForJob } from '../helpers/tools.ts';

const TTF = new Uint8Array(fs.readFileSync('tests/fixtures/tools/NotoSansSC-Features.ttf'));
const NOT_A_FONT = '这不是字体文件，请上传 TTF、OTF、TTC、WOFF、WOFF2 或 EOT 格式的字体';
const TRUNCATED = '字体文件不完整（可能上传中断或文件已损坏），请重新上传完整的文件';
const BOMB = '字体解压后的数据过大，已拒绝处理（可能是恶意构造的压缩文件）';

let library: LibraryFixture;
let app: Hono;

beforeAll(async () => {
  ({ library, app } = await openToolsApp('tools-upload'));
});
afterAll(() => closeToolsApp(library));

/** A WOFF whose one table inflates far beyond the size it declares. */
function woffHidingABomb(): Uint8Array {
  const woff = encodeWoff(TTF);
  const view = new DataView(woff.buffer, woff.byteOffset, woff.byteLength);
  const bomb = zlib.deflateSync(Buffer.alloc(100 << 20), { level: 9 });
  const out = new Uint8Array(woff.byteLength + bomb.byteLength);
  out.set(woff);
  out.set(bomb, woff.byteLength);
  const outView = new DataView(out.buffer);
  outView.setUint32(8, out.byteLength);
  // The first table record now points at the bomb and declares a little more than its packed size.
  outView.setUint32(44 + 4, woff.byteLength);
  outView.setUint32(44 + 8, bomb.byteLength);
  outView.setUint32(44 + 12, bomb.byteLength + 4096);
  expect(view.getUint32(0)).toBe(0x774f4646);
  return out;
}

/** A WOFF that declares a 1 GB font. */
function woffDeclaringAGigabyte(): Uint8Array {
  const woff = encodeWoff(TTF);
  new DataView(woff.buffer).setUint32(16, 1 << 30);
  return woff;
}

/** A WOFF2 header that declares a 1 GB font. */
function woff2DeclaringAGigabyte(): Uint8Array {
  const out = new Uint8Array(1024);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x774f4632);
  view.setUint32(4, 0x00010000);
  view.setUint32(8, out.byteLength);
  view.setUint16(12, 1);
  view.setUint32(16, 1 << 30);
  return out;
}

describe('POST /tools/api/upload', () => {
  test('keeps a font and describes it from its bytes, whatever its name', async () => {
    const answer = await uploadFont(app, TTF, '思源黑体.woff');
    expect(answer.status).toBe(200);
    expect(answer.data).toEqual({
      fileId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: '思源黑体.woff',
      size: TTF.byteLength,
      format: 'ttf',
      familyName: 'Noto Sans SC',
      glyphCount: 521,
      faces: 1,
      expiresAt: expect.any(String),
    });
    const minutes = (Date.parse(answer.data.expiresAt) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(59);
    expect(minutes).toBeLessThanOrEqual(60);
  });

  test.each([
    [
      'a PNG renamed .ttf',
      async () =>
        sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
          .png()
          .toBuffer(),
      'logo.ttf',
      NOT_A_FONT,
    ],
    ['a text file', async () => Buffer.from('hello, this is not a font at all'), 'font.otf', NOT_A_FONT],
    ['a truncated TTF', async () => TTF.subarray(0, 40_000), 'cut.ttf', TRUNCATED],
    ['a truncated WOFF', async () => encodeWoff(TTF).subarray(0, 20_000), 'cut.woff', TRUNCATED],
    ['a WOFF that inflates past what it declares', async () => woffHidingABomb(), 'bomb.woff', BOMB],
    ['a WOFF that declares 1 GB', async () => woffDeclaringAGigabyte(), 'big.woff', BOMB],
    ['a WOFF2 that declares 1 GB', async () => woff2DeclaringAGigabyte(), 'big.woff2', BOMB],
    ['an empty file', async () => Buffer.alloc(0), 'empty.ttf', '上传的文件是空的，请选择字体文件'],
    [
      'a file name with a NUL in it',
      async () => Buffer.from(TTF),
      'font\u0000.ttf',
      '文件名含有不允许的字符（空字符或残缺的 Unicode 字符），请改名后重新上传',
    ],
    [
      'a TTF whose loca points past its glyf',
      async () => {
        const bytes = TTF.slice();
        const view = new DataView(bytes.buffer);
        for (let i = 0; i < view.getUint16(4); i++) {
          if (String.fromCharCode(...bytes.subarray(12 + i * 16, 16 + i * 16)) !== 'loca') continue;
          const end = view.getUint32(12 + i * 16 + 8) + view.getUint32(12 + i * 16 + 12);
          view.setUint16(end - 2, 0xffff);
        }
        return Buffer.from(bytes);
      },
      'broken.ttf',
      '字体文件已损坏：字形位置（loca）指向字形（glyf）表之外',
    ],
  ])('refuses %s with 400 and keeps nothing', async (_name, make, fileName, message) => {
    const before = await storedFiles(library.dataDir, 'tools/uploads');
    const answer = await uploadFont(app, new Uint8Array(await make()), fileName);
    expect(answer.status).toBe(400);
    expect(answer.code).toBe('400');
    expect(answer.message).toBe(message);
    expect(await storedFiles(library.dataDir, 'tools/uploads')).toEqual(before);
  });

  test('refuses 200 MB with 413 while it streams, and keeps nothing', async () => {
    const before = await storedFiles(library.dataDir, 'tools/uploads');
    const boundary = 'x-boundary-42';
    const chunk = new Uint8Array(1 << 20);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(
          new TextEncoder().encode(
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.ttf"\r\n\r\n`,
          ),
        );
      },
      pull(controller) {
        if (sent >= 200) {
          controller.enqueue(new TextEncoder().encode(`\r\n--${boundary}--\r\n`));
          controller.close();
          return;
        }
        sent++;
        controller.enqueue(chunk);
      },
    });
    const res = await app.request('/tools/api/upload', {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(((await res.json()) as { message: string }).message).toBe('文件太大，最大只能上传 50 MB');
    expect(sent).toBeLessThan(60);
    expect(await storedFiles(library.dataDir, 'tools/uploads')).toEqual(before);
    expect(await storedFiles(library.dataDir, '.tmp')).toEqual([]);
  });

  test('refuses a 50 MB body whose boundary never comes after reading its first chunks only', async () => {
    let pulled = 0;
    const chunk = new Uint8Array(64 * 1024).fill(0x61);
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled >= 50 << 20) return controller.close();
        pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const res = await app.request('/tools/api/upload', {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=never-sent' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/^上传的表单格式不正确/);
    // The parser is linear and gives up after the preamble window, not after 50 MB.
    expect(pulled).toBeLessThanOrEqual(256 * 1024);
  });

  test('refuses a 200 MB JSON body with 413 after reading about its first megabyte', async () => {
    let pulled = 0;
    const chunk = new TextEncoder().encode(`${'"字体",'.repeat(8000)}`);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('[{"gno":"noto-sans-sc-400","text":['));
      },
      pull(controller) {
        if (pulled >= 200 << 20) return controller.close();
        pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const res = await app.request('/webfont/http', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(((await res.json()) as { message: string }).message).toBe('请求内容过大，这个接口最多接受 1 MB');
    expect(pulled).toBeLessThan(2 << 20);
  });

  test('refuses a declared 200 MB body at once', async () => {
    const res = await app.request('/tools/api/upload', {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=b', 'content-length': String(200 << 20) },
      body: '--b--',
    });
    expect(res.status).toBe(413);
  });

  test.each([
    ['no multipart body', { method: 'POST', body: 'x' }, '请用 multipart/form-data 表单上传文件（字段名 file）'],
    [
      'no file field',
      {
        method: 'POST',
        body: (() => {
          const f = new FormData();
          f.append('name', 'x');
          return f;
        })(),
      },
      '请选择要上传的文件（字段名 file）',
    ],
  ])('answers %s with 400', async (_name, init, message) => {
    const answer = await call(app, '/tools/api/upload', init as RequestInit);
    expect(answer.status).toBe(400);
    expect(answer.message).toBe(message);
  });

  // How long such an upload takes beside a conversion is measured, not asserted:
  // tests/bench/upload-during-conversion.ts.
  test('takes another upload while a large conversion runs, and the conversion still ends', async () => {
    const upload = await uploadFont(app, TTF, 'font.ttf');
    const started = await call<{ jobId: string }>(app, '/tools/api/convert', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ source: { fileId: upload.data.fileId }, formats: ['woff2', 'svg', 'woff', 'eot', 'ttf'] }),
    });
    const second = await uploadFont(app, TTF, 'other.ttf');
    expect(second.status).toBe(200);
    expect(second.data.fileId).not.toBe(upload.data.fileId);
    const job = await waitForJob(app, started.data.jobId);
    expect(job.state).toBe('done');
  });
});
