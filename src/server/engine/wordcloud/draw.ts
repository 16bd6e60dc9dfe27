import { type Canvas, createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import type { SubsetFace } from '../hb-subset.ts';
import type { DrawingFace } from '../text/font-registry.ts';
import type { Ink, PlacedWord, WordForm } from './layout.ts';

/** One line of characters of a word, drawn centred on (dx, dy) of the word's own axes. */
export interface Run {
  text: string;
  dx: number;
  dy: number;
}

/**
 * A face held from the font registry for drawing words. Only characters the face maps are drawn:
 * Skia would otherwise fall back to another font, and the cloud would show a face nobody chose.
 */
export class WordFont {
  readonly family: string;
  /** Baseline to the middle of the em, as a share of the size (for upright columns). */
  readonly middle: number;
  private readonly face: DrawingFace;
  private readonly openSubsetFace: () => SubsetFace;
  private scratch: Canvas = createCanvas(256, 256);

  /**
   * Takes a held face (`close()` gives it back) and how to load the font into HarfBuzz, which only
   * the SVG outputs need: a cloud drawn as PNG never holds a copy of the font.
   */
  constructor(face: DrawingFace, openSubsetFace: () => SubsetFace) {
    this.face = face;
    this.openSubsetFace = openSubsetFace;
    this.family = face.family;
    const { ascender, descender, unitsPerEm } = face.metrics;
    this.middle = (ascender + descender) / 2 / unitsPerEm;
  }

  /**
   * The font cut down to the given characters (made each time: it is wanted once per SVG). The SVG
   * outputs read glyphs from this subset of a few KB: parsing a whole 10 MB CJK font in JavaScript
   * for each SVG held 100–150 MB per tools worker and left the allocator's arenas full of its copies.
   */
  subset(codePoints: Iterable<number>): Uint8Array {
    const face = this.openSubsetFace();
    try {
      return face.subset(codePoints);
    } finally {
      face.destroy();
    }
  }

  /** Whether the face maps every character of the text. */
  covers(text: string): boolean {
    for (const ch of text) if (!this.face.has(ch.codePointAt(0) ?? 0)) return false;
    return true;
  }

  /** The runs a word is drawn as: one line, or one upright character per em down a column. */
  runsOf(form: WordForm): Run[] {
    if (!form.vertical) return [{ text: form.text, dx: 0, dy: 0 }];
    const chars = [...form.text];
    return chars.map((text, i) => ({
      text,
      dx: 0,
      dy: (i - (chars.length - 1) / 2) * form.size + this.middle * form.size,
    }));
  }

  /** Draws a word with its anchor at (x, y), in the context's current fill. */
  paint(ctx: SKRSContext2D, form: WordForm, x: number, y: number): void {
    ctx.save();
    ctx.translate(x, y);
    if (form.angle) ctx.rotate((form.angle * Math.PI) / 180);
    ctx.font = `${form.size}px "${this.family}"`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'alphabetic';
    for (const run of this.runsOf(form)) ctx.fillText(run.text, run.dx, run.dy);
    ctx.restore();
  }

  /** A word's ink as an alpha image at a scale (1 is the canvas's pixels), for the layout's tests. */
  ink(form: WordForm, scale = 1): Ink {
    const ctx0 = this.scratch.getContext('2d');
    ctx0.font = `${form.size}px "${this.family}"`;
    ctx0.textAlign = 'center';
    ctx0.textBaseline = 'alphabetic';
    // The unturned box of the word's runs, from the font's measured ink.
    let minX = Number.POSITIVE_INFINITY;
    let maxX = Number.NEGATIVE_INFINITY;
    let minY = Number.POSITIVE_INFINITY;
    let maxY = Number.NEGATIVE_INFINITY;
    for (const run of this.runsOf(form)) {
      const m = ctx0.measureText(run.text);
      const half = m.width / 2;
      minX = Math.min(minX, run.dx - Math.max(half, m.actualBoundingBoxLeft));
      maxX = Math.max(maxX, run.dx + Math.max(half, m.actualBoundingBoxRight));
      minY = Math.min(minY, run.dy - Math.max(m.actualBoundingBoxAscent, m.fontBoundingBoxAscent ?? 0));
      maxY = Math.max(maxY, run.dy + Math.max(m.actualBoundingBoxDescent, m.fontBoundingBoxDescent ?? 0));
    }
    // Its corners turned and scaled, with two pixels to spare for antialiasing.
    const angle = (form.angle * Math.PI) / 180;
    const cos = Math.cos(angle) * scale;
    const sin = Math.sin(angle) * scale;
    const xs: number[] = [];
    const ys: number[] = [];
    for (const [px, py] of [
      [minX, minY],
      [maxX, minY],
      [minX, maxY],
      [maxX, maxY],
    ] as const) {
      xs.push(px * cos - py * sin);
      ys.push(px * sin + py * cos);
    }
    const left = Math.floor(Math.min(...xs)) - 2;
    const top = Math.floor(Math.min(...ys)) - 2;
    const width = Math.ceil(Math.max(...xs)) + 2 - left;
    const height = Math.ceil(Math.max(...ys)) + 2 - top;
    if (this.scratch.width < width || this.scratch.height < height) {
      this.scratch = createCanvas(Math.max(width, this.scratch.width), Math.max(height, this.scratch.height));
    }
    const ctx = this.scratch.getContext('2d');
    ctx.clearRect(0, 0, width, height);
    ctx.fillStyle = '#000';
    ctx.save();
    ctx.translate(-left, -top);
    ctx.scale(scale, scale);
    this.paint(ctx, form, 0, 0);
    ctx.restore();
    const rgba = ctx.getImageData(0, 0, width, height).data;
    const alpha = new Uint8Array(width * height);
    for (let i = 0; i < alpha.length; i++) alpha[i] = rgba[i * 4 + 3] as number;
    return { left, top, width, height, alpha };
  }

  /** Gives the face back to the registry. */
  close(): void {
    this.face.release();
  }
}

/** Draws the placed words on a canvas of the given size and background (null for transparent). */
export function drawCloud(
  font: WordFont,
  words: ReadonlyArray<PlacedWord & { color: string }>,
  size: { width: number; height: number },
  background: string | null,
): Canvas {
  const canvas = createCanvas(size.width, size.height);
  const ctx = canvas.getContext('2d');
  if (background) {
    ctx.fillStyle = background;
    ctx.fillRect(0, 0, size.width, size.height);
  }
  for (const word of words) {
    ctx.fillStyle = word.color;
    font.paint(ctx, word, word.x, word.y);
  }
  return canvas;
}
