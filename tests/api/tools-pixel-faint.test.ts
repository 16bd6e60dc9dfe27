import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { PixelPreview } from '../../src/contract/tools.ts';
import { pixelFont } from '../../src/server/engine/pixel/pixel-font.ts';
import type { PixelGlyph } from '../../src/server/engine/pixel/rasterize.ts';
import { call, json, type LibraryFixture } from '../helpers/font-library.ts';
import { closeToolsApp, type JobAnswer, openToolsApp, uploadFont, waitForJob } from '../helpers/tools.ts';

// Faces the pixel maker cannot turn into a pixel font as asked: a hairline face that comes out
// empty on a small grid (the tool works out what would draw it), and a face whose every glyph is
// the same box (a font of boxes would pass every structural check, so it is refused by its look).

let library: LibraryFixture;
let app: Hono;
const TEXT = '永和九年';

/** A font drawn on a 48-cell grid whose glyphs are the given bitmaps, one per character of TEXT. */
function fontOf(bitmaps: (index: number) => Uint8Array): Uint8Array {
  const grid = 48;
  const glyphs: PixelGlyph[] = [...TEXT].map((character, i) => ({
    codePoint: character.codePointAt(0) as number,
    bitmap: { width: grid, height: grid, bits: bitmaps(i) },
  }));
  return pixelFont(glyphs, { grid, above: 40, below: 8 }, 'square', {
    family: '测试字体',
    asciiFamily: 'Test Face',
    weight: 400,
    version: '1.000',
    copyright: 'Made for a test.',
  });
}

/** Strokes one cell wide on the 48 grid: a frame and, per character, a few bars of its own. */
function hairlines(index: number): Uint8Array {
  const bits = new Uint8Array(48 * 48);
  const set = (x: number, y: number) => {
    bits[y * 48 + x] = 1;
  };
  for (let i = 4; i < 44; i++) {
    set(i, 4);
    set(i, 43);
    set(4, i);
    set(43, i);
    set(i, 12 + index * 6);
    set(14 + index * 7, i);
  }
  return bits;
}

/** The same box for every character: a thick square frame. */
function box(): Uint8Array {
  const bits = new Uint8Array(48 * 48);
  for (let y = 4; y < 44; y++)
    for (let x = 4; x < 44; x++) if (x < 10 || x > 37 || y < 10 || y > 37) bits[y * 48 + x] = 1;
  return bits;
}

async function upload(bytes: Uint8Array, name: string): Promise<string> {
  const uploaded = await uploadFont(app, bytes, name);
  expect(uploaded.status, uploaded.message).toBe(200);
  return uploaded.data.fileId;
}

const preview = (fileId: string, options: Record<string, unknown>) =>
  call<PixelPreview>(app, '/tools/api/pixel/preview', json('POST', { source: { fileId }, options, text: TEXT }));

/** Asks for a pixel font of the text at grid 16 and waits for the job to end. */
async function makeFont(fileId: string, family: string): Promise<JobAnswer> {
  const started = await call<{ jobId: string }>(
    app,
    '/tools/api/pixel',
    json('POST', { source: { fileId }, options: { grid: 16 }, text: TEXT, family }),
  );
  expect(started.status, started.message).toBe(200);
  return waitForJob(app, started.data.jobId, 60_000);
}

const ink = (bits: string) => [...bits].filter((bit) => bit === '1').length;

beforeAll(async () => {
  ({ library, app } = await openToolsApp('tools-pixel-faint'));
}, 60_000);
afterAll(() => closeToolsApp(library));

describe('a face too thin for its grid', () => {
  test('gets a message in Chinese and a threshold and a grid, worked out from its glyphs, that draw it', async () => {
    const fileId = await upload(fontOf(hairlines), 'hairline.ttf');
    const faint = await preview(fileId, { grid: 16 });
    expect(faint.status, faint.message).toBe(200);
    expect(faint.data.glyphs.every((glyph) => ink(glyph.bits) <= 2)).toBe(true);
    const advice = faint.data.faint;
    expect(advice?.message).toMatch(/笔画太细.*16 × 16/);
    expect(advice?.threshold).toBeLessThan(0.45);
    expect(advice?.grid).toBeGreaterThan(16);
    expect(advice?.message).toContain(`阈值 ${advice?.threshold?.toFixed(2)}`);
    expect(advice?.message).toContain(`点阵尺寸调到 ${advice?.grid}`);

    // Each suggestion does what it says: every character gets its strokes, and the advice goes.
    for (const options of [
      { grid: 16, threshold: advice?.threshold },
      { grid: advice?.grid, threshold: 0.45 },
    ]) {
      const drawn = await preview(fileId, options);
      expect(drawn.status, drawn.message).toBe(200);
      expect(drawn.data.faint, JSON.stringify(options)).toBeUndefined();
      for (const glyph of drawn.data.glyphs) expect(ink(glyph.bits), JSON.stringify(options)).toBeGreaterThan(8);
    }

    // A font made at the faint options is refused with the same advice, not published empty.
    const job = await makeFont(fileId, '细线');
    expect(job.state).toBe('failed');
    expect(job.error).toBe(advice?.message);
  }, 120_000);

  test('a regular face at the usual options gets no advice', async () => {
    const fileId = await upload(fontOf(box), 'box.ttf');
    const drawn = await preview(fileId, { grid: 16 });
    expect(drawn.status, drawn.message).toBe(200);
    expect(drawn.data.faint).toBeUndefined();
  });
});

describe('a face whose glyphs are all one box', () => {
  test('is refused with a message instead of being made into a font of boxes', async () => {
    const fileId = await upload(fontOf(box), 'boxes.ttf');
    const job = await makeFont(fileId, '方框');
    expect(job.state).toBe('failed');
    expect(job.error).toMatch(/每个字都一模一样/);
    expect(job.result?.files ?? []).toEqual([]);
  }, 120_000);
});
