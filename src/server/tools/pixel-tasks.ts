import sharp from 'sharp';
import type { PixelEdit, PixelOptions } from '../../contract/tools.ts';
import { checkWrittenFont } from '../engine/convert.ts';
import { FontInputError } from '../engine/font-errors.ts';
import { drawPreview, pixelFont } from '../engine/pixel/pixel-font.ts';
import { type GlyphCoverage, GlyphRasterizer, type PixelGlyph } from '../engine/pixel/rasterize.ts';
import { faintMessage, inkReport, isFaint, type PixelSuggestion, suggestedThreshold } from '../engine/pixel/thin.ts';
import { encodeWoff } from '../engine/woff.ts';
import { encodeWoff2 } from '../engine/woff2.ts';
import { encodeWoff2Fast } from '../engine/woff2-fast.ts';
import { acquireStoredFace, type StoredFace } from '../fonts/drawing-faces.ts';
import { storage } from '../storage/index.ts';
import { OPAQUE_STEP, type Progress, type TaskFile } from './task-types.ts';

// The pixel-font maker's work inside a tools worker: draw the source font's glyphs on the grid,
// apply the person's edits, then draw a preview or write the font in three formats.

/** Where the source font is (a library face names its SHA-256, so the registry need not hash it). */
export type PixelSource = StoredFace;

/** A preview: a PNG of one line, and the glyph bitmaps the editor shows. */
export interface PixelPreviewResult {
  png: Uint8Array;
  width: number;
  height: number;
  glyphs: PixelEdit[];
  /** Characters of the text the font lacks. */
  missing: string;
  /** Set when the line comes out (almost) empty at these options: the face is too thin for them. */
  faint?: PixelSuggestion | undefined;
}

/** The font a pixel job made. */
export interface PixelFontResult {
  files: TaskFile[];
  glyphCount: number;
  missing: number;
}

// Rasterizers hold their face in the font registry; a preview typed letter by letter reuses one,
// and every grid of one font shares the face's one registration.
const rasterizers = new Map<string, GlyphRasterizer>();
const MAX_RASTERIZERS = 4;
// Larger fonts (round dots of a whole character set) are compressed fast rather than at q11.
const WOFF2_FULL_QUALITY_MAX_BYTES = 4 << 20;
/** How many characters a font's faintness is judged on (and its suggestion worked out from). */
const FAINT_SAMPLE = 40;

async function rasterizer(source: PixelSource, grid: number): Promise<GlyphRasterizer> {
  const id = `${source.key}#${source.faceIndex}@${grid}`;
  const found = rasterizers.get(id);
  if (found) {
    rasterizers.delete(id);
    rasterizers.set(id, found);
    return found;
  }
  const made = new GlyphRasterizer(await acquireStoredFace(source), grid);
  rasterizers.set(id, made);
  if (rasterizers.size > MAX_RASTERIZERS) {
    const [oldest, dropped] = rasterizers.entries().next().value as [string, GlyphRasterizer];
    rasterizers.delete(oldest);
    dropped.close();
  }
  return made;
}

/**
 * What gives a faint line its strokes back, worked out from the glyphs' coverage: the threshold
 * at this grid whose ink best matches the outlines, and the smallest larger grid at which the
 * chosen threshold draws every stroke (the face is drawn again at each grid tried, up to 48).
 */
async function suggestionFor(
  source: PixelSource,
  codePoints: readonly number[],
  coverages: readonly GlyphCoverage[],
  options: PixelOptions,
): Promise<PixelSuggestion> {
  const suggestion: PixelSuggestion = {};
  const threshold = suggestedThreshold(coverages);
  if (threshold !== undefined && threshold < options.threshold) suggestion.threshold = threshold;
  // Tried outside the cache of rasterizers, which keeps the grids the person is working at.
  for (let grid = options.grid + 1; grid <= 48 && suggestion.grid === undefined; grid++) {
    const raster = new GlyphRasterizer(await acquireStoredFace(source), grid);
    try {
      const larger = codePoints.map((cp) => raster.coverage(cp)).filter((c): c is GlyphCoverage => c !== undefined);
      if (inkReport(larger, options.threshold).faint === 0) suggestion.grid = grid;
    } finally {
      raster.close();
    }
  }
  return suggestion;
}

/** The suggestion for a line that comes out faint at these options, or undefined when it does not. */
async function faintness(
  source: PixelSource,
  raster: GlyphRasterizer,
  codePoints: readonly number[],
  options: PixelOptions,
): Promise<PixelSuggestion | undefined> {
  const sample = [...new Set(codePoints)].filter((cp) => raster.has(cp)).slice(0, FAINT_SAMPLE);
  const coverages = sample.map((cp) => raster.coverage(cp)).filter((c): c is GlyphCoverage => c !== undefined);
  if (!isFaint(inkReport(coverages, options.threshold))) return undefined;
  return suggestionFor(source, sample, coverages, options);
}

/** The glyph of a character: the person's edit when there is one, else drawn from the font. */
function glyphOf(
  raster: GlyphRasterizer,
  codePoint: number,
  options: PixelOptions,
  edits: ReadonlyMap<number, PixelEdit>,
): PixelGlyph | undefined {
  const edit = edits.get(codePoint);
  if (edit && raster.has(codePoint)) {
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
  const codePoints = characters.map((ch) => ch.codePointAt(0) ?? 0);
  const glyphs = codePoints.map((cp) => glyphOf(raster, cp, options, overrides));
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
    faint: await faintness(
      source,
      raster,
      codePoints.filter((cp) => !overrides.has(cp)),
      options,
    ),
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
  const wanted = task.codePoints.filter((cp) => raster.has(cp));
  if (wanted.length === 0) {
    throw new FontInputError('incompatible', 'no chosen character in font', '这款字体里没有所选的任何字符');
  }
  const overrides = editsOf(task.edits);
  const faint = await faintness(
    task.source,
    raster,
    wanted.filter((cp) => !overrides.has(cp)),
    task.options,
  );
  if (faint) throw new FontInputError('incompatible', 'faint at these options', faintMessage(task.options.grid, faint));
  const glyphs: PixelGlyph[] = [];
  for (const [i, cp] of wanted.entries()) {
    const glyph = glyphOf(raster, cp, task.options, overrides);
    if (glyph) glyphs.push(glyph);
    if (i % 500 === 0) progress(0.05 + (0.45 * i) / wanted.length, `正在点阵化字形（${i} / ${wanted.length}）`);
  }
  checkDistinct(glyphs);
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

/**
 * Refuses glyphs that are all one picture: distinct characters drawn alike are placeholder
 * boxes or a face that was not drawn (a font of them would pass every structural check).
 */
function checkDistinct(glyphs: readonly PixelGlyph[]): void {
  const printing = glyphs.filter((glyph) => !/\s/u.test(String.fromCodePoint(glyph.codePoint)));
  if (printing.length < 4) return;
  const first = printing[0]?.bitmap;
  const alike = printing.every(
    ({ bitmap }) => bitmap.width === first?.width && bitmap.bits.every((bit, i) => bit === first.bits[i]),
  );
  if (alike) {
    throw new FontInputError(
      'incompatible',
      'every glyph alike',
      '画出的每个字都一模一样（可能都是缺字方框），这不是一款可用的字体，请换一款字体',
    );
  }
}
