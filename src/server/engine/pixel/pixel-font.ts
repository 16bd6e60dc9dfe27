import type { PixelShape } from '../../../contract/tools.ts';
import type { FontNaming, OutlineGlyph, OutlinePoint } from './font-writer.ts';
import { writeTrueType } from './font-writer.ts';
import type { PixelGlyph, PixelLayout } from './rasterize.ts';
import { type Bitmap, traceBitmap } from './trace.ts';

export { PIXEL_SHAPES, type PixelShape } from '../../../contract/tools.ts';

/** Font units per pixel: a power of two keeps every coordinate exact (16 px → 1024 units per em). */
export const UNITS_PER_PIXEL = 64;
// Round dots fill 86 % of a cell; gapped squares leave an eighth of a cell between neighbours.
const DOT_RADIUS = 0.43 * UNITS_PER_PIXEL;
const GAP = UNITS_PER_PIXEL / 8;

/** A glyph's pixels as outlines in font units, the baseline at y = 0. */
export function outlineOf(glyph: PixelGlyph, layout: PixelLayout, shape: PixelShape): OutlineGlyph {
  const { bitmap } = glyph;
  const bottom = -layout.below * UNITS_PER_PIXEL;
  const contours: OutlinePoint[][] = [];
  if (shape === 'square') {
    for (const contour of traceBitmap(bitmap)) {
      contours.push(contour.map((p) => ({ x: p.x * UNITS_PER_PIXEL, y: bottom + p.y * UNITS_PER_PIXEL, on: true })));
    }
  } else {
    eachInk(bitmap, (x, yUp) => {
      const left = x * UNITS_PER_PIXEL;
      const base = bottom + yUp * UNITS_PER_PIXEL;
      contours.push(shape === 'round' ? dot(left, base) : gappedSquare(left, base));
    });
  }
  return { codePoint: glyph.codePoint, advance: bitmap.width * UNITS_PER_PIXEL, contours };
}

/** Calls `visit` for every ink cell with its column and its row counted up from the bottom. */
function eachInk(bitmap: Bitmap, visit: (x: number, yUp: number) => void): void {
  for (let row = 0; row < bitmap.height; row++) {
    for (let x = 0; x < bitmap.width; x++) {
      if (bitmap.bits[row * bitmap.width + x]) visit(x, bitmap.height - 1 - row);
    }
  }
}

function gappedSquare(left: number, base: number): OutlinePoint[] {
  const a = GAP / 2;
  const b = UNITS_PER_PIXEL - GAP / 2;
  // Clockwise (y up): up the left side, along the top, down the right side.
  return [
    { x: left + a, y: base + a, on: true },
    { x: left + a, y: base + b, on: true },
    { x: left + b, y: base + b, on: true },
    { x: left + b, y: base + a, on: true },
  ];
}

/**
 * A round dot as eight quadratic control points on an octagon around the circle: TrueType puts an
 * on-curve point halfway between each pair, and those lie on the circle. Clockwise (y up).
 */
function dot(left: number, base: number): OutlinePoint[] {
  const cx = left + UNITS_PER_PIXEL / 2;
  const cy = base + UNITS_PER_PIXEL / 2;
  const reach = DOT_RADIUS / Math.cos(Math.PI / 8);
  const points: OutlinePoint[] = [];
  for (let k = 0; k < 8; k++) {
    const angle = Math.PI / 8 - (k * Math.PI) / 4; // clockwise from just above the x axis
    points.push({
      x: Math.round(cx + reach * Math.cos(angle)),
      y: Math.round(cy + reach * Math.sin(angle)),
      on: false,
    });
  }
  return points;
}

/** Writes the pixel glyphs as a TrueType font. */
export function pixelFont(
  glyphs: readonly PixelGlyph[],
  layout: PixelLayout,
  shape: PixelShape,
  naming: FontNaming,
): Uint8Array {
  return writeTrueType(
    glyphs.map((glyph) => outlineOf(glyph, layout, shape)),
    naming,
    {
      unitsPerEm: layout.grid * UNITS_PER_PIXEL,
      ascender: layout.above * UNITS_PER_PIXEL,
      descender: -layout.below * UNITS_PER_PIXEL,
      pixelsPerEm: layout.grid,
    },
  );
}

/** Colours and size of a preview image. */
export interface PreviewStyle {
  /** Screen pixels per font pixel. */
  scale: number;
  /** Margin around the text, in font pixels. */
  margin: number;
}

/**
 * Draws a line of pixel glyphs as an RGBA image, each pixel in its shape, dark ink on white. The
 * image is what the font draws at `grid` px per em, enlarged `scale` times. Missing glyphs leave
 * an em of space.
 */
export function drawPreview(
  glyphs: ReadonlyArray<PixelGlyph | undefined>,
  layout: PixelLayout,
  shape: PixelShape,
  style: PreviewStyle,
): { width: number; height: number; rgba: Uint8Array } {
  const { scale, margin } = style;
  const cells = glyphs.reduce((sum, glyph) => sum + (glyph?.bitmap.width ?? layout.grid), 0);
  const width = (cells + margin * 2) * scale;
  const height = (layout.grid + margin * 2) * scale;
  const rgba = new Uint8Array(width * height * 4).fill(255);
  const radius = (DOT_RADIUS / UNITS_PER_PIXEL) * scale;
  const gap = Math.max(1, Math.round((GAP / UNITS_PER_PIXEL) * scale));
  const paint = (px: number, py: number) => {
    const at = (py * width + px) * 4;
    rgba[at] = 29;
    rgba[at + 1] = 28;
    rgba[at + 2] = 26;
  };
  let column = margin;
  for (const glyph of glyphs) {
    if (glyph) {
      const { bitmap } = glyph;
      for (let row = 0; row < bitmap.height; row++) {
        for (let x = 0; x < bitmap.width; x++) {
          if (!bitmap.bits[row * bitmap.width + x]) continue;
          const left = (column + x) * scale;
          const top = (margin + row) * scale;
          for (let dy = 0; dy < scale; dy++) {
            for (let dx = 0; dx < scale; dx++) {
              if (shape === 'round') {
                const ex = dx + 0.5 - scale / 2;
                const ey = dy + 0.5 - scale / 2;
                if (ex * ex + ey * ey > radius * radius) continue;
              } else if (shape === 'gapped' && scale >= 4) {
                const half = gap / 2;
                if (dx < half || dy < half || dx >= scale - half || dy >= scale - half) continue;
              }
              paint(left + dx, top + dy);
            }
          }
        }
      }
    }
    column += glyph?.bitmap.width ?? layout.grid;
  }
  return { width, height, rgba };
}
