import { createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import type { DrawingFace, FaceMetrics } from '../text/font-registry.ts';
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
export function pixelLayout(metrics: FaceMetrics, grid: number): PixelLayout {
  const { ascender, descender } = metrics;
  const span = ascender - descender;
  const above = span > 0 ? Math.min(grid, Math.max(1, Math.round((grid * ascender) / span))) : grid - 1;
  return { grid, above, below: grid - above };
}

/** How much of each cell of a glyph the outline covers, 0–1, row by row from the top. */
export interface GlyphCoverage {
  codePoint: number;
  width: number;
  height: number;
  cells: Float32Array;
}

/** The glyph of a coverage at a threshold: every cell whose coverage reaches it is ink. */
export function glyphAt(coverage: GlyphCoverage, threshold: number): PixelGlyph {
  const { codePoint, width, height, cells } = coverage;
  const bits = new Uint8Array(cells.length);
  for (let i = 0; i < cells.length; i++) if ((cells[i] as number) >= threshold) bits[i] = 1;
  return { codePoint, bitmap: { width, height, bits } };
}

/**
 * Draws glyphs of a face into pixel bitmaps. The face is drawn by Skia (@napi-rs/canvas) at
 * SUPERSAMPLE times the grid and every cell whose coverage reaches the threshold becomes ink.
 * Only characters the face maps are drawn: Skia would otherwise fall back to another font.
 */
export class GlyphRasterizer {
  readonly layout: PixelLayout;
  private readonly face: DrawingFace;
  private readonly context: SKRSContext2D;
  private readonly size: number;

  /** Takes a face held from the font registry; `close()` gives it back. */
  constructor(face: DrawingFace, grid: number) {
    this.face = face;
    this.layout = pixelLayout(face.metrics, grid);
    this.size = grid * SUPERSAMPLE;
    // Wide enough for the widest Latin glyphs (an em and a half).
    const canvas = createCanvas(Math.ceil(this.size * 1.5), this.size);
    this.context = canvas.getContext('2d');
    this.context.font = `${this.size}px "${face.family}"`;
    this.context.textBaseline = 'alphabetic';
    this.context.fillStyle = '#000';
  }

  /** Whether the face maps a character. */
  has(codePoint: number): boolean {
    return this.face.has(codePoint);
  }

  /** How much of each cell the character's outline covers, or undefined when the face lacks it. */
  coverage(codePoint: number): GlyphCoverage | undefined {
    if (!this.face.has(codePoint)) return undefined;
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
    const cells = new Float32Array(width * grid);
    const full = SUPERSAMPLE * SUPERSAMPLE * 255;
    for (let row = 0; row < grid; row++) {
      for (let x = 0; x < width; x++) {
        let coverage = 0;
        for (let dy = 0; dy < SUPERSAMPLE; dy++) {
          const base = ((row * SUPERSAMPLE + dy) * canvasWidth + x * SUPERSAMPLE) * 4 + 3;
          for (let dx = 0; dx < SUPERSAMPLE; dx++) coverage += pixels[base + dx * 4] as number;
        }
        cells[row * width + x] = coverage / full;
      }
    }
    return { codePoint, width, height: grid, cells };
  }

  /** The glyph of a character, or undefined when the face lacks it. */
  draw(codePoint: number, threshold: number): PixelGlyph | undefined {
    const coverage = this.coverage(codePoint);
    return coverage && glyphAt(coverage, threshold);
  }

  /** Gives the face back to the registry (the canvas goes with this object). */
  close(): void {
    this.face.release();
  }
}
