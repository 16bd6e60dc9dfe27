import { deflateSync } from 'node:zlib';
import type { Hono } from 'hono';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FoundGlyphs, IdentifyResult, UploadedPicture } from '../../src/contract/identify.ts';
import { IDENTIFY_READS_PER_MINUTE } from '../../src/server/tools/limits.ts';
import { call, json, type LibraryFixture } from '../helpers/font-library.ts';
import { drawTextPicture, fixtureFont, registerTestFont } from '../helpers/identify.ts';
import { closeToolsApp, openToolsApp } from '../helpers/tools.ts';

let library: LibraryFixture;
let app: Hono;
const TEXT = '永和九年';
let picture: Buffer;

beforeAll(async () => {
  // Clients are told apart by the address a proxy forwards, as behind the site's proxy.
  process.env['TRUST_PROXY'] = 'true';
  ({ library, app } = await openToolsApp('tools-identify'));
  const family = registerTestFont(fixtureFont('noto-sans-sc', 'NotoSansSC_700Bold.ttf'));
  const { gray } = drawTextPicture({ lines: [TEXT], family, size: 56 });
  picture = await sharp(gray.data, { raw: { width: gray.width, height: gray.height, channels: 1 } })
    .jpeg({ quality: 70 })
    .toBuffer();
});
afterAll(async () => {
  await closeToolsApp(library);
  delete process.env['TRUST_PROXY'];
});

function upload(bytes: Uint8Array, name: string) {
  const form = new FormData();
  form.append('file', new Blob([bytes as Uint8Array<ArrayBuffer>]), name);
  return call<UploadedPicture>(app, '/tools/api/identify/picture', { method: 'POST', body: form });
}

/** A PNG that declares a size but holds almost nothing: what a decompression bomb looks like. */
function declaredPng(width: number, height: number): Uint8Array {
  const crc = (bytes: Buffer) => {
    let c = ~0;
    for (const byte of bytes) {
      c ^= byte;
      for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
    }
    return ~c >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const tail = Buffer.alloc(4);
    tail.writeUInt32BE(crc(body));
    return Buffer.concat([head, body, tail]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8);
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', ihdr),
      chunk('IDAT', deflateSync(Buffer.alloc(width + 1))),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  );
}

describe('font identification', () => {
  test('finds the glyphs of an uploaded picture, suggests their characters and ranks the drawn font first', async () => {
    const uploaded = await upload(new Uint8Array(picture), 'photo.jpg');
    expect(uploaded.status).toBe(200);
    expect(uploaded.data.pictureId).toMatch(/^[0-9a-f-]{36}$/);
    const found = await call<FoundGlyphs>(
      app,
      '/tools/api/identify/glyphs',
      json('POST', { pictureId: uploaded.data.pictureId }),
    );
    expect(found.status).toBe(200);
    expect(found.data.image).toMatch(/^data:image\/png;base64,/);
    const glyphs = found.data.lines.flatMap((line) => line.glyphs);
    expect(glyphs).toHaveLength(4);
    expect(glyphs.map((glyph) => glyph.suggestions[0]?.character).join('')).toBe(TEXT);

    // Nothing typed: the reader's characters are used.
    const guessed = await call<IdentifyResult>(
      app,
      '/tools/api/identify/match',
      json('POST', { pictureId: uploaded.data.pictureId, glyphs: glyphs.map((glyph) => ({ box: glyph.box })) }),
    );
    expect(guessed.status).toBe(200);
    expect(guessed.data.sample).toBe(TEXT);
    expect(guessed.data.glyphs.every((glyph) => !glyph.confirmed)).toBe(true);
    const best = guessed.data.candidates[0];
    expect(guessed.data.inLibrary).toBe(true);
    expect(best?.family.gno).toBe('noto-sans-sc');
    expect(best?.faces[0]?.weight).toBe(700);
    expect(best?.family.license).toBe('OFL-1.1');
    expect(guessed.data.faces).toBe(4);

    // Confirmed characters, and a crop and turn of the picture.
    const confirmed = await call<IdentifyResult>(
      app,
      '/tools/api/identify/match',
      json('POST', {
        pictureId: uploaded.data.pictureId,
        glyphs: glyphs.map((glyph, i) => ({ box: glyph.box, character: [...TEXT][i] })),
      }),
    );
    expect(confirmed.data.glyphs.every((glyph) => glyph.confirmed)).toBe(true);
    expect(confirmed.data.candidates[0]?.faces[0]?.weight).toBe(700);
    const scores = confirmed.data.candidates.map((candidate) => candidate.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  test('turns a phone photo upright by its EXIF orientation before finding the glyphs', async () => {
    // Stored on its side, with orientation 6: viewers turn it a quarter clockwise to show it.
    const sideways = await sharp(picture).rotate(270).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    const meta = await sharp(picture).metadata();
    const uploaded = await upload(new Uint8Array(sideways), 'IMG_0001.jpg');
    expect(uploaded.status).toBe(200);
    expect([uploaded.data.width, uploaded.data.height]).toEqual([meta.width, meta.height]);
    const found = await call<FoundGlyphs>(
      app,
      '/tools/api/identify/glyphs',
      json('POST', { pictureId: uploaded.data.pictureId }),
    );
    const read = found.data.lines.flatMap((line) => line.glyphs.map((glyph) => glyph.suggestions[0]?.character));
    expect(read.join('')).toBe(TEXT);
  });

  test('reads characters for boxes the person drew', async () => {
    const uploaded = await upload(new Uint8Array(picture), 'photo.jpg');
    const found = await call<FoundGlyphs>(
      app,
      '/tools/api/identify/glyphs',
      json('POST', { pictureId: uploaded.data.pictureId }),
    );
    const boxes = found.data.lines.flatMap((line) => line.glyphs.map((glyph) => glyph.box));
    const read = await call<{ suggestions: { character: string }[][] }>(
      app,
      '/tools/api/identify/characters',
      json('POST', { pictureId: uploaded.data.pictureId, boxes: [boxes[2]] }),
    );
    expect(read.status).toBe(200);
    expect(read.data.suggestions[0]?.[0]?.character).toBe('九');
  });

  test.each([
    ['a file that is not a picture', () => new TextEncoder().encode('這不是圖片'), /无法读取这张图片/],
    ['a 30000 × 30000 PNG bomb', () => declaredPng(30_000, 30_000), /图片尺寸过大（30000 × 30000 像素）/],
  ])('refuses %s with a Chinese message and keeps nothing', async (_name, bytes, message) => {
    const answer = await upload(bytes(), 'x.png');
    expect(answer.status).toBe(400);
    expect(answer.message).toMatch(message);
  });

  test('says so when a picture holds no text', async () => {
    const blank = await sharp({ create: { width: 300, height: 120, channels: 3, background: '#f6f6f6' } })
      .png()
      .toBuffer();
    const uploaded = await upload(new Uint8Array(blank), 'blank.png');
    const found = await call(app, '/tools/api/identify/glyphs', json('POST', { pictureId: uploaded.data.pictureId }));
    expect(found.status).toBe(400);
    expect(found.message).toContain('没有找到文字');
  });

  test.each([
    [
      '200 glyph boxes',
      { glyphs: Array.from({ length: 200 }, (_, i) => ({ box: { x: i, y: 0, width: 10, height: 10 } })) },
      /^比对的字（glyphs）：一次最多比对 40 个字/,
    ],
    ['no glyph box', { glyphs: [] }, /^比对的字（glyphs）：请至少保留一个字框/],
    [
      'two characters in one box',
      { glyphs: [{ box: { x: 0, y: 0, width: 10, height: 10 }, character: '中国' }] },
      /每个字框只能填一个字/,
    ],
    [
      'a crop under 10 px',
      { crop: { x: 0, y: 0, width: 5, height: 40 }, glyphs: [{ box: { x: 0, y: 0, width: 5, height: 5 } }] },
      /^裁剪区域宽度（width）：最小 10 像素/,
    ],
    [
      'a box with a negative position',
      { glyphs: [{ box: { x: -4, y: 0, width: 10, height: 10 } }] },
      /^比对的字（glyphs）第 1 项的字框左边位置（x）：不能为负数/,
    ],
  ])('refuses %s', async (_name, body, message) => {
    const uploaded = await upload(new Uint8Array(picture), 'photo.jpg');
    const answer = await call(
      app,
      '/tools/api/identify/match',
      json('POST', { pictureId: uploaded.data.pictureId, ...body }),
    );
    expect(answer.status).toBe(400);
    expect(answer.message).toMatch(message);
  });

  test('limits how often one client may have pictures read, and says when to try again', async () => {
    const ask = async (who: string) => {
      const answer = await app.request('/tools/api/identify/glyphs', {
        ...json('POST', { pictureId: '00000000-0000-4000-8000-000000000000' }),
        headers: { 'content-type': 'application/json', 'x-forwarded-for': who },
      });
      const body = (await answer.json()) as { message: string };
      return { status: answer.status, wait: Number(answer.headers.get('retry-after')), message: body.message };
    };
    for (let i = 0; i < IDENTIFY_READS_PER_MINUTE; i++) expect((await ask('203.0.113.7')).status).toBe(404);
    const refused = await ask('203.0.113.7');
    expect(refused.status).toBe(429);
    expect(refused.wait).toBeGreaterThan(0);
    expect(refused.message).toBe(`识别文字太频繁，请 ${refused.wait} 秒后再试`);
    // Another client is not held back.
    expect((await ask('203.0.113.8')).status).toBe(404);
  });

  test('answers 404 for a picture that is unknown or has expired', async () => {
    const answer = await call(
      app,
      '/tools/api/identify/glyphs',
      json('POST', { pictureId: '00000000-0000-4000-8000-000000000000' }),
    );
    expect(answer.status).toBe(404);
    expect(answer.message).toContain('请重新上传');
  });
});
