// Glyph boxes as the person edits them: moved, resized, merged, split, added and dropped, always
// kept inside the picture and at least a few pixels a side.
import type { GlyphBox } from '../../../api/identify.ts';

/** A box on the page: where it is, the character typed for it and the reader's suggestions. */
export interface EditableGlyph {
  /** Stable key for React, and for matching answers to boxes that may have changed meanwhile. */
  key: number;
  box: GlyphBox;
  character: string;
  suggestions: string[];
}

const MIN_SIDE = 4;
let nextKey = 1;

/** A new key for a box. */
export const glyphKey = () => nextKey++;

/** The box moved and resized by deltas, kept inside a picture of the given size. */
export function adjustBox(
  box: GlyphBox,
  change: { dx?: number; dy?: number; dw?: number; dh?: number },
  size: { width: number; height: number },
): GlyphBox {
  const width = Math.min(size.width, Math.max(MIN_SIDE, Math.round(box.width + (change.dw ?? 0))));
  const height = Math.min(size.height, Math.max(MIN_SIDE, Math.round(box.height + (change.dh ?? 0))));
  const x = Math.min(size.width - width, Math.max(0, Math.round(box.x + (change.dx ?? 0))));
  const y = Math.min(size.height - height, Math.max(0, Math.round(box.y + (change.dy ?? 0))));
  return { x, y, width, height };
}

/** The smallest box holding both. */
export function unionBox(a: GlyphBox, b: GlyphBox): GlyphBox {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return {
    x,
    y,
    width: Math.max(a.x + a.width, b.x + b.width) - x,
    height: Math.max(a.y + a.height, b.y + b.height) - y,
  };
}

/** The box cut into a left and a right half (for two characters the finder kept together). */
export function splitBox(box: GlyphBox): [GlyphBox, GlyphBox] {
  const left = Math.max(MIN_SIDE, Math.floor(box.width / 2));
  return [
    { ...box, width: left },
    { ...box, x: box.x + left, width: Math.max(MIN_SIDE, box.width - left) },
  ];
}

/** A box for a character the finder missed: a square of the typical size in the middle. */
export function newBox(glyphs: EditableGlyph[], size: { width: number; height: number }): GlyphBox {
  const sides = glyphs.map((glyph) => Math.max(glyph.box.width, glyph.box.height)).sort((a, b) => a - b);
  const side = Math.min(
    size.width,
    size.height,
    sides[sides.length >> 1] ?? Math.round(Math.min(size.width, size.height) / 2),
  );
  return {
    x: Math.round((size.width - side) / 2),
    y: Math.round((size.height - side) / 2),
    width: side,
    height: side,
  };
}
