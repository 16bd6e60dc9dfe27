import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FoundGlyphs, IdentifyResult } from '../../src/contract/identify.ts';
import type { PixelPreview } from '../../src/contract/tools.ts';
import { fontFamilies, fonts } from '../../src/server/db/schema/index.ts';
import { GlyphRasterizer } from '../../src/server/engine/pixel/rasterize.ts';
import { acquireFace } from '../../src/server/engine/text/font-registry.ts';
import { call, json, type LibraryFixture } from '../helpers/font-library.ts';
import { fixtureFont, uploadTextPicture } from '../helpers/identify.ts';
import { inkMask, iou } from '../helpers/picture-ink.ts';
import { closeToolsApp, openToolsApp } from '../helpers/tools.ts';

// The drawers used together, as a site's visitors use them: pixel previews dragged over ten grids,
// word clouds and identification on the same fonts at once, in both tools workers. Each output is
// checked against the font drawn alone: pixel glyphs against the same rasterizer run in this thread
// before anything else drew, clouds' pictures against their outlines (drawn by fontkit, not Skia),
// identification against its own answer before the others ran.

const FONTS = path.resolve('tests/fixtures/fonts');
const TEXT = '永和九年';
const GRIDS = Array.from({ length: 10 }, (_, i) => 17 + i);
const FACES = [
  { gno: 'noto-sans-sc', weight: 700, file: 'noto-sans-sc/NotoSansSC_700Bold.ttf' },
  { gno: 'zcool-kuaile', weight: 400, file: 'zcool-kuaile/ZCOOLKuaiLe_400Regular.ttf' },
];
const WORDS = [
  '造字',
  '联盟',
  '字体',
  '预览',
  '永和',
  '九年',
  '岁在',
  '癸丑',
  '暮春',
  '之初',
  '会稽',
  '山阴',
  '兰亭',
].map((text, i) => ({ text, weight: 1 - i * 0.06 }));

let library: LibraryFixture;
let app: Hono;
const fontIds: number[] = [];
/** Glyph bits of each face at each grid, drawn in this thread before any tool ran: `${face}@${grid}` → char → bits. */
const alone = new Map<string, Map<number, string>>();
let pictureId: string;
let glyphBoxes: FoundGlyphs['lines'][number]['glyphs'];
let identifiedAlone: IdentifyResult;

beforeAll(async () => {
  ({ library, app } = await openToolsApp('drawers-together'));
  for (const face of FACES) {
    const [row] = await library.db
      .select({ id: fonts.id })
      .from(fonts)
      .innerJoin(fontFamilies, eq(fonts.familyId, fontFamilies.id))
      .where(and(eq(fontFamilies.gno, face.gno), eq(fonts.weight, face.weight)));
    fontIds.push(row?.id as number);
    for (const grid of GRIDS) {
      const raster = new GlyphRasterizer(acquireFace({ path: path.join(FONTS, face.file) }), grid);
      const bits = new Map<number, string>();
      for (const character of TEXT) {
        const codePoint = character.codePointAt(0) as number;
        bits.set(codePoint, Array.from(raster.draw(codePoint, 0.45)?.bitmap.bits ?? [], String).join(''));
      }
      raster.close();
      alone.set(`${face.gno}@${grid}`, bits);
    }
  }

  // A picture of the text in Noto Sans SC Bold, and identification's answer before anything else ran.
  pictureId = await uploadTextPicture(app, fixtureFont('noto-sans-sc', 'NotoSansSC_700Bold.ttf'), TEXT, { size: 56 });
  const found = await call<FoundGlyphs>(app, '/tools/api/identify/glyphs', json('POST', { pictureId }));
  glyphBoxes = found.data.lines.flatMap((line) => line.glyphs);
  identifiedAlone = await identify();
  expect(identifiedAlone.candidates[0]?.family.gno).toBe('noto-sans-sc');
}, 180_000);
afterAll(() => closeToolsApp(library));

async function identify(): Promise<IdentifyResult> {
  const answer = await call<IdentifyResult>(
    app,
    '/tools/api/identify/match',
    json('POST', {
      pictureId,
      glyphs: glyphBoxes.map((glyph, i) => ({ box: glyph.box, character: [...TEXT][i] })),
    }),
  );
  expect(answer.status, answer.message).toBe(200);
  return answer.data;
}

async function cloud(fontId: number, seed: number, format: 'png' | 'svg-outlines'): Promise<Buffer> {
  const res = await app.request(
    '/tools/api/word-cloud',
    json('POST', {
      words: WORDS,
      font: { fontId },
      colors: 'ink',
      background: '#ffffff',
      width: 600,
      height: 600,
      seed,
      format,
    }),
  );
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

describe('drawers used together', () => {
  test('pixel previews over ten grids, word clouds and identification on the same fonts each draw the font itself', async () => {
    const checks: Promise<void>[] = [];
    for (const grid of GRIDS) {
      FACES.forEach((face, f) => {
        const fontId = fontIds[f] as number;
        checks.push(
          call<PixelPreview>(
            app,
            '/tools/api/pixel/preview',
            json('POST', { source: { fontId }, options: { grid }, text: TEXT }),
          ).then((answer) => {
            expect(answer.status, answer.message).toBe(200);
            const expected = alone.get(`${face.gno}@${grid}`);
            for (const glyph of answer.data.glyphs) {
              const label = `${face.gno} grid ${grid} ${String.fromCodePoint(glyph.codePoint)}`;
              expect(iou(glyph.bits, expected?.get(glyph.codePoint) ?? ''), label).toBeGreaterThanOrEqual(0.99);
            }
          }),
        );
        // A cloud of the same font between the previews: its picture must be its outlines.
        if (grid % 3 === f) {
          checks.push(
            Promise.all([cloud(fontId, grid, 'png'), cloud(fontId, grid, 'svg-outlines')]).then(async ([png, svg]) => {
              const agreement = iou(await inkMask(png), await inkMask(svg));
              expect(agreement, `${face.gno} cloud at grid ${grid}`).toBeGreaterThanOrEqual(0.85);
            }),
          );
        }
      });
      if (grid % 4 === 0) {
        checks.push(
          identify().then((answer) => {
            expect(answer.candidates[0]?.family.gno).toBe('noto-sans-sc');
            expect(answer.candidates[0]?.score).toBeCloseTo(identifiedAlone.candidates[0]?.score as number, 3);
          }),
        );
      }
      // A few at a time, so that both workers take turns at every step of the drag.
      if (checks.length >= 4) await Promise.all(checks.splice(0));
    }
    await Promise.all(checks);
  }, 300_000);
});
