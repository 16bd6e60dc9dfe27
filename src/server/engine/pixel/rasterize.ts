import { createHash } from 'node:crypto';
import { createCanvas, GlobalFonts, type SKRSContext2D } from '@napi-rs/canvas';
import { readSfnt } from '../sfnt.ts';
import { cmapOf, verticalMetrics } from '../sfnt-info.ts';
import type { Bitmap } from './trace.ts';

/** How glyphs are turned into pixels. */
export interface RasterOptions {
  /** Pixels per em, 8–48. */
  grid: number;
  /** Share of a cell the outline must cover for the cell to be ink, 0.05–0.95 (lower = bolder). */
  threshold: number;
}

/** One glyph as pixels: its bitmap spans its advance and the whole em, top row first. */
export interface PixelGlyph {
  codePoint: number;
  bitmap: Bitmap;
}

/** Where the baseline sits in the em: rows above it and rows below it (they add up to the grid). */
export interface PixelLayout {
  grid: number;
  above: number;
  below: number;
}

// Each cell is drawn as SUPERSAMPLE × SUPERSAMPLE device pixels, and its coverage is their mean.
const SUPERSAMPLE = 4;

/** The baseline of a font on a grid, from its typographic ascender and descender (OS/2, else hhea). */
export function pixelLayout(font: Uint8Array, grid: number): PixelLayout {
  const { ascender, descender } = verticalMetrics(readSfnt(font));
  const span = ascender - descender;
  const above = span > 0 ? Math.min(grid, Math.max(1, Math.round((grid * ascender) / span))) : grid - 1;
  return { grid, above, below: grid - above };
}

/**
 * Draws glyphs of a font into pixel bitmaps. The font is drawn by Skia (@napi-rs/canvas) at
 * SUPERSAMPLE times the grid and every cell whose coverage reaches the threshold becomes ink.
 * Only characters the font maps are drawn: Skia would otherwise fall back to another font.
 */
export class GlyphRasterizer {
  readonly layout: PixelLayout;
  readonly codePoints: ReadonlySet<number>;
  private readonly family: string;
  private readonly key: ReturnType<typeof GlobalFonts.register>;
  private readonly context: SKRSContext2D;
  private readonly size: number;

  constructor(font: Uint8Array, grid: number) {
    this.layout = pixelLayout(font, grid);
    this.codePoints = new Set(cmapOf(readSfnt(font)).keys());
    this.family = `pixel-source-${createHash('sha1').update(font).digest('hex').slice(0, 16)}`;
    this.key = GlobalFonts.register(Buffer.from(font.buffer, font.byteOffset, font.byteLength), this.family);
    if (!this.key) throw new Error('The font could not be loaded for drawing');
    this.size = grid * SUPERSAMPLE;
    // Wide enough for the widest Latin glyphs (an em and a half).
    const canvas = createCanvas(Math.ceil(this.size * 1.5), this.size);
    this.context = canvas.getContext('2d');
    this.context.font = `${this.size}px "${this.family}"`;
    this.context.textBaseline = 'alphabetic';
    this.context.fillStyle = '#000';
  }

  /** The glyph of a character, or undefined when the font lacks it. */
  draw(codePoint: number, threshold: number): PixelGlyph | undefined {
    if (!this.codePoints.has(codePoint)) return undefined;
    const { grid, above } = this.layout;
    const text = String.fromCodePoint(codePoint);
    const ctx = this.context;
    const advancePx = ctx.measureText(text).width;
    // Full-width glyphs take the whole grid; others round to whole cells, at least one.
    const width = Math.max(1, Math.min(Math.ceil(grid * 1.5), Math.round(advancePx / SUPERSAMPLE)));
    const canvasWidth = width * SUPERSAMPLE;
    ctx.clearRect(0, 0, canvasWidth, this.size);
    ctx.fillText(text, 0, above * SUPERSAMPLE);
    const pixels = ctx.getImageData(0, 0, canvasWidth, this.size).data;
    const bits = new Uint8Array(width * grid);
    const need = threshold * SUPERSAMPLE * SUPERSAMPLE * 255;
    for (let row = 0; row < grid; row++) {
      for (let x = 0; x < width; x++) {
        let coverage = 0;
        for (let dy = 0; dy < SUPERSAMPLE; dy++) {
          const base = ((row * SUPERSAMPLE + dy) * canvasWidth + x * SUPERSAMPLE) * 4 + 3;
          for (let dx = 0; dx < SUPERSAMPLE; dx++) coverage += pixels[base + dx * 4] as number;
        }
        if (coverage >= need) bits[row * width + x] = 1;
      }
    }
    return { codePoint, bitmap: { width, height: grid, bits } };
  }

  /** Frees the font (the canvas goes with this object). */
  close(): void {
    if (this.key) GlobalFonts.remove(this.key);
  }
}
