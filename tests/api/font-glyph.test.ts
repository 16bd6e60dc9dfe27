import fs from 'node:fs';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { GlyphDetail } from '../../src/contract/fonts.ts';
import { createApp } from '../../src/server/app.ts';
import { coverageSets } from '../../src/server/engine/charsets.ts';
import type { GlyphPage } from '../../src/server/fonts/glyphs.ts';
import { closeSubsetPool } from '../../src/server/webfont/subset.ts';
import { call, type LibraryFixture, openFixtureLibrary } from '../helpers/font-library.ts';
import { cmapByFontTools, glyphMetricsByFontTools } from '../helpers/font-oracle.ts';

// The glyph browser of a font's page: the character table in the order of the printed standards,
// and one character zoomed with the metrics a designer checks.

const NOTO = new Uint8Array(fs.readFileSync('tests/fixtures/fonts/noto-sans-sc/NotoSansSC_400Regular.ttf'));
let library: LibraryFixture;
let app: Hono;

beforeAll(async () => {
  library = await openFixtureLibrary('glyph');
  app = createApp();
});
afterAll(async () => {
  await closeSubsetPool();
  await library.close();
});

describe('GET /web/api/font/glyphs for a character set', () => {
  test('lists the common 3500 in the order of 通用规范汉字表, only those the face has', async () => {
    const has = new Set(cmapByFontTools(NOTO));
    const expected = [...coverageSets().tongyong].filter((cp) => has.has(cp));
    const { data } = await call<GlyphPage>(app, '/web/api/font/glyphs?gno=noto-sans-sc&set=tongyong&size=500');
    expect(data.total).toBe(expected.length);
    expect(data.records.map((glyph) => glyph.codePoint)).toEqual(expected.slice(0, 500));
    // The table's own order (by strokes), not code points: 一乙二十丁厂七.
    expect(
      data.records
        .slice(0, 7)
        .map((glyph) => glyph.char)
        .join(''),
    ).toBe('一乙二十丁厂七');
  });
});

describe('GET /web/api/font/glyph', () => {
  test('zooms a character with its outline and the metrics fontTools reads from the face', async () => {
    const { status, data } = await call<GlyphDetail>(
      app,
      `/web/api/font/glyph?gno=noto-sans-sc&char=${encodeURIComponent('永')}`,
    );
    expect(status).toBe(200);
    const oracle = glyphMetricsByFontTools(NOTO, '永');
    expect(data).toMatchObject({
      char: '永',
      codePoint: 0x6c38,
      unicode: 'U+6C38',
      fontGNo: 'noto-sans-sc-400',
      has: true,
      unitsPerEm: oracle.unitsPerEm,
      advanceWidth: oracle.advanceWidth,
      leftSideBearing: oracle.lsb,
      bbox: { xMin: oracle.bbox[0], yMin: oracle.bbox[1], xMax: oracle.bbox[2], yMax: oracle.bbox[3] },
    });
    if (oracle.advanceHeight === null) expect(data.advanceHeight).toBeUndefined();
    else expect(data.advanceHeight).toBe(oracle.advanceHeight);
    expect(data.path).toMatch(/^M[-\d.]+ [-\d.]+/);
  });

  test('says so when the face lacks the character, without an outline', async () => {
    const { status, data } = await call<GlyphDetail>(
      app,
      `/web/api/font/glyph?gno=zcool-kuaile&char=${encodeURIComponent('龘')}`,
    );
    expect(status).toBe(200);
    expect(data).toEqual({ char: '龘', codePoint: 0x9f98, unicode: 'U+9F98', fontGNo: 'zcool-kuaile-400', has: false });
  });

  test.each([
    ['?gno=noto-sans-sc&char=ab', 400, '请只输入一个字'],
    ['?gno=noto-sans-sc&char=%20', 400, '请输入一个可见的字'],
    ['?gno=noto-sans-sc', 400, '要查的字'],
    ['?gno=missing&char=a', 404, '字体不存在'],
  ])('answers %s with %i and a Chinese message', async (query, status, message) => {
    const answer = await call(app, `/web/api/font/glyph${query}`);
    expect(answer.status).toBe(status);
    expect(answer.message).toContain(message);
  });
});
