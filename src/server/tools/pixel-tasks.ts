import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import type { PixelEdit, PixelOptions } from '../../contract/tools.ts';
import { checkWrittenFont, decodeFont } from '../engine/convert.ts';
import { FontInputError } from '../engine/font-errors.ts';
import { drawPreview, pixelFont } from '../engine/pixel/pixel-font.ts';
import { GlyphRasterizer, type PixelGlyph } from '../engine/pixel/rasterize.ts';
import { encodeWoff } from '../engine/woff.ts';
import { encodeWoff2 } from '../engine/woff2.ts';
import { encodeWoff2Fast } from '../engine/woff2-fast.ts';
import { storage } from '../storage/index.ts';
import { OPAQUE_STEP, type Progress, type TaskFile } from './task-types.ts';

// The pixel-font maker's work inside a tools worker: draw the source font's glyphs on the grid,
// apply the person's edits, then draw a preview or write the font in three formats.

/** Where the source font is and how to draw it. */
export interface PixelSource {
  key: string;
  faceIndex: number;
  maxSfntBytes: number;
}

/** A preview: a PNG of one line, and the glyph bitmaps the editor shows. */
export interface PixelPreviewResult {
  png: Uint8Array;
  width: number;
  height: number;
  glyphs: PixelEdit[];
  /** Characters of the text the font lacks. */
  missing: string;
}

/** The font a pixel job made. */
export interface PixelFontResult {
  files: TaskFile[];
  glyphCount: number;
  missing: number;
}

// Rasterizers keep the parsed font registered with Skia; a preview typed letter by letter reuses one.
const rasterizers = new Map<string, GlyphRasterizer>();
const MAX_RASTERIZERS = 4;
// Larger fonts (round dots of a whole character set) are compressed fast rather than at q11.
const WOFF2_FULL_QUALITY_MAX_BYTES = 4 << 20;

async function rasterizer(source: PixelSource, grid: number): Promise<GlyphRasterizer> {
  const id = `${source.key}#${source.faceIndex}@${grid}`;
  const found = rasterizers.get(id);
  if (found) {
    rasterizers.delete(id);
    rasterizers.set(id, found);
    return found;
  }
  const object = await storage().get(source.key);
  if (!object) throw new Error(`font file is missing from storage: ${source.key}`);
  const { sfnt } = await decodeFont(new Uint8Array(await buffer(object.body)), {
    faceIndex: source.faceIndex,
    maxSfntBytes: source.maxSfntBytes,
  });
  const made = new GlyphRasterizer(sfnt, grid);
  rasterizers.set(id, made);
  if (rasterizers.size > MAX_RASTERIZERS) {
    const [oldest, dropped] = rasterizers.entries().next().value as [string, GlyphRasterizer];
    rasterizers.delete(oldest);
    dropped.close();
  }
  return made;
}

/** The glyph of a character: the person's edit when there is one, else drawn from the font. */
function glyphOf(
  raster: GlyphRasterizer,
  codePoint: number,
  options: PixelOptions,
  edits: ReadonlyMap<number, PixelEdit>,
): PixelGlyph | undefined {
  const edit = edits.get(codePoint);
  if (edit && raster.codePoints.has(codePoint)) {
    const bits = Uint8Array.from(edit.bits, (ch) => (ch === '1' ? 1 : 0));
    return { codePoint, bitmap: { width: edit.width, height: options.grid, bits } };
  }
  return raster.draw(codePoint, options.threshold);
}

const editsOf = (edits: readonly PixelEdit[] = []) => new Map(edits.map((edit) => [edit.codePoint, edit]));

/** Draws a line of text as the font will look (task 146), and answers its glyphs for the editor. */
export async function pixelPreview(
  source: PixelSource,
  options: PixelOptions,
  text: string,
  edits: readonly PixelEdit[] = [],
): Promise<PixelPreviewResult> {
  const raster = await rasterizer(source, options.grid);
  const overrides = editsOf(edits);
  const characters = [...text];
  const glyphs = characters.map((ch) => glyphOf(raster, ch.codePointAt(0) ?? 0, options, overrides));
  // Screen pixels per font pixel: large enough to see each pixel, small enough for a phone's width.
  const scale = Math.max(2, Math.min(6, Math.round(48 / options.grid)));
  const image = drawPreview(glyphs, raster.layout, options.shape, { scale, margin: 1 });
  const png = await sharp(image.rgba, { raw: { width: image.width, height: image.height, channels: 4 } })
    .png({ compressionLevel: 6, palette: true })
    .toBuffer();
  const unique = new Map<number, PixelGlyph>();
  for (const glyph of glyphs) if (glyph) unique.set(glyph.codePoint, glyph);
  return {
    png: new Uint8Array(png),
    width: image.width,
    height: image.height,
    glyphs: [...unique.values()].map((glyph) => ({
      codePoint: glyph.codePoint,
      width: glyph.bitmap.width,
      bits: Array.from(glyph.bitmap.bits, (bit) => (bit ? '1' : '0')).join(''),
    })),
    missing: characters.filter((_ch, i) => !glyphs[i]).join(''),
  };
}

/** Makes the pixel font (task 143): TTF, WOFF and WOFF2 of every chosen character the source has. */
export async function pixelFontTask(
  task: {
    source: PixelSource;
    options: PixelOptions;
    codePoints: number[];
    edits: PixelEdit[];
    family: string;
    asciiFamily: string;
    weight: number;
    outPrefix: string;
  },
  progress: Progress,
): Promise<PixelFontResult> {
  progress(0.02, '正在读取字体', OPAQUE_STEP);
  const raster = await rasterizer(task.source, task.options.grid);
  const wanted = task.codePoints.filter((cp) => raster.codePoints.has(cp));
  if (wanted.length === 0) {
    throw new FontInputError('incompatible', 'no chosen character in font', '这款字体里没有所选的任何字符');
  }
  const overrides = editsOf(task.edits);
  const glyphs: PixelGlyph[] = [];
  for (const [i, cp] of wanted.entries()) {
    const glyph = glyphOf(raster, cp, task.options, overrides);
    if (glyph) glyphs.push(glyph);
    if (i % 500 === 0) progress(0.05 + (0.45 * i) / wanted.length, `正在点阵化字形（${i} / ${wanted.length}）`);
  }
  progress(0.5, '正在合并像素轮廓，写入 TTF', OPAQUE_STEP);
  const ttf = pixelFont(glyphs, raster.layout, task.options.shape, {
    family: task.family,
    asciiFamily: task.asciiFamily,
    weight: task.weight,
    version: '1.000',
    copyright: `Pixel font made at the font alliance site from a source font; its licence follows the source font's.`,
  });
  progress(0.56, '正在检查 TTF', OPAQUE_STEP);
  await checkWrittenFont(ttf, 'ttf');
  progress(0.6, '正在生成 WOFF');
  const woff = encodeWoff(ttf, (fraction) => progress(0.6 + 0.05 * fraction, '正在生成 WOFF'));
  // Brotli runs as one call: the page shows that it is working and for how long, not a share.
  progress(0.65, '正在生成 WOFF2（最高压缩）', OPAQUE_STEP);
  const woff2 = ttf.byteLength <= WOFF2_FULL_QUALITY_MAX_BYTES ? await encodeWoff2(ttf) : encodeWoff2Fast(ttf, 9);
  progress(0.9, '正在检查 WOFF2', OPAQUE_STEP);
  await checkWrittenFont(woff2, 'woff2');
  progress(0.95, '正在保存文件');
  const files: TaskFile[] = [];
  for (const [format, bytes] of [
    ['ttf', ttf],
    ['woff', woff],
    ['woff2', woff2],
  ] as const) {
    const key = `${task.outPrefix}/${files.length}.${format}`;
    await storage().put(key, bytes, { durable: false });
    files.push({ format, key, size: bytes.byteLength });
  }
  return { files, glyphCount: glyphs.length, missing: task.codePoints.length - wanted.length };
}
