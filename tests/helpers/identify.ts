import { createCanvas } from '@napi-rs/canvas';
import type { Hono } from 'hono';
import sharp from 'sharp';
import { expect } from 'vitest';
import type { UploadedPicture } from '../../src/contract/identify.ts';
import { FONT_CATALOGUE } from '../../src/server/db/seed/font-catalogue.ts';
import type { CatalogueEntry } from '../../src/server/db/seed/font-catalogue-types.ts';
import { seedFonts } from '../../src/server/db/seed/fonts.ts';
import { type GrayImage, grayOf } from '../../src/server/engine/identify/binarise.ts';
import type { Box } from '../../src/server/engine/identify/segment.ts';
import { acquireFace } from '../../src/server/engine/text/font-registry.ts';
import { call } from './font-library.ts';

// Pictures of text with known character boxes, drawn from the fixture fonts, for the glyph finder's
// and the matcher's tests.

/** The path of a fixture font by family folder and file name. */
export function fixtureFont(family: string, file: string): string {
  return `tests/fixtures/fonts/${family}/${file}`;
}

/** Takes a font from the font registry for drawing test pictures (held for the rest of the run). */
export function registerTestFont(file: string): string {
  return acquireFace({ path: file }).family;
}

/** Options of a drawn picture. */
export interface TextPicture {
  lines: string[];
  family: string;
  size: number;
  /** Extra room between characters, as a share of the size. */
  spacing?: number;
  light?: boolean;
}

/** Ink box (alpha ≥ 0.5) of a canvas. */
function inkBoxOf(data: Uint8ClampedArray, width: number, height: number): Box | null {
  let minX = width;
  let minY = height;
  let maxX = -1;
  let maxY = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if ((data[(y * width + x) * 4 + 3] ?? 0) < 128) continue;
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
    }
  }
  return maxX < 0 ? null : { x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1 };
}

/** Draws lines of text, one character at a time, and answers the grey picture and each character's ink box. */
export function drawTextPicture(options: TextPicture): { gray: GrayImage; boxes: Box[][] } {
  const { size, family } = options;
  const pitch = Math.round(size * (1 + (options.spacing ?? 0.1)));
  const lineHeight = Math.round(size * 1.6);
  const longest = Math.max(...options.lines.map((line) => [...line].length));
  const width = pitch * longest + size;
  const height = lineHeight * options.lines.length + size;
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  const single = createCanvas(width, height);
  const singleCtx = single.getContext('2d');
  const ground = options.light ? '#1a2a3a' : '#f4f1ea';
  const ink = options.light ? '#f8f8f8' : '#202020';
  ctx.fillStyle = ground;
  ctx.fillRect(0, 0, width, height);
  const boxes: Box[][] = [];
  options.lines.forEach((line, row) => {
    const lineBoxes: Box[] = [];
    [...line].forEach((character, column) => {
      const x = size / 2 + column * pitch;
      const y = size / 2 + row * lineHeight + size;
      for (const c of [ctx, singleCtx]) {
        c.font = `${size}px "${family}"`;
        c.textBaseline = 'alphabetic';
        c.fillStyle = ink;
      }
      ctx.fillText(character, x, y);
      singleCtx.clearRect(0, 0, width, height);
      singleCtx.fillText(character, x, y);
      const box = inkBoxOf(singleCtx.getImageData(0, 0, width, height).data, width, height);
      if (box) lineBoxes.push(box);
    });
    boxes.push(lineBoxes);
  });
  return { gray: grayOf(ctx.getImageData(0, 0, width, height).data, width, height), boxes };
}

/** Overlap of two boxes over their union. */
export function overlapOf(a: Box, b: Box): number {
  const w = Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x));
  const h = Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));
  const shared = w * h;
  return shared / (a.width * a.height + b.width * b.height - shared);
}

/**
 * Seeds catalogue families from the identification fixtures (tests/fixtures/identify-fonts/, one
 * folder per family named by its gno) into the open test library.
 */
export async function seedIdentifyFixtures(gnos: readonly string[]): Promise<void> {
  const catalogue: CatalogueEntry[] = gnos.map((gno) => {
    const entry = FONT_CATALOGUE.find((candidate) => candidate.gno === gno);
    if (!entry) throw new Error(`No catalogue entry ${gno}`);
    return { ...entry, source: { kind: 'fixture', dir: gno } };
  });
  const seeded = await seedFonts({ source: 'fixtures', fixturesDir: 'tests/fixtures/identify-fonts', catalogue });
  if (seeded.failed.length) throw new Error(`Fixtures not seeded: ${JSON.stringify(seeded.failed)}`);
}

/**
 * Draws `text` in a face of tests/fixtures/identify-fonts/ (`file` under it), uploads the picture to the
 * identification API as a PNG and answers its id.
 */
export function uploadIdentifyPicture(
  app: Hono,
  file: string,
  text: string,
  options: { size: number; spacing?: number },
): Promise<string> {
  return uploadTextPicture(app, `tests/fixtures/identify-fonts/${file}`, text, options);
}

/** Draws `text` in the font file `fontFile`, uploads the picture to the identification API as a PNG and answers its id. */
export async function uploadTextPicture(
  app: Hono,
  fontFile: string,
  text: string,
  options: { size: number; spacing?: number },
): Promise<string> {
  const family = registerTestFont(fontFile);
  const { gray } = drawTextPicture({ lines: [text], family, ...options });
  const png = await sharp(gray.data, { raw: { width: gray.width, height: gray.height, channels: 1 } })
    .png()
    .toBuffer();
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(png)]), 'sample.png');
  const uploaded = await call<UploadedPicture>(app, '/tools/api/identify/picture', { method: 'POST', body: form });
  expect(uploaded.status).toBe(200);
  return uploaded.data.pictureId;
}
