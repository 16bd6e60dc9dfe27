import { createHash } from 'node:crypto';
import { type Canvas, createCanvas, GlobalFonts, type SKRSContext2D } from '@napi-rs/canvas';
import type { Ink, PlacedWord, WordForm } from './layout.ts';

/** One line of characters of a word, drawn centred on (dx, dy) of the word's own axes. */
export interface Run {
  text: string;
  dx: number;
  dy: number;
}

/**
 * A font registered with Skia for drawing words. Only characters the font maps are drawn: Skia
 * would otherwise fall back to another font, and the cloud would show a face nobody chose.
 */
export class WordFont {
  readonly family: string;
  /** Baseline to the middle of the em, as a share of the size (for upright columns). */
  readonly middle: number;
  private readonly key: ReturnType<typeof GlobalFonts.register>;
  private scratch: Canvas = createCanvas(256, 256);

  readonly bytes: Uint8Array;
  readonly codePoints: ReadonlySet<number>;

  constructor(
    bytes: Uint8Array,
    codePoints: ReadonlySet<number>,
    metrics: { ascender: number; descender: number; unitsPerEm: number },
  ) {
    this.bytes = bytes;
    this.codePoints = codePoints;
    this.family = `cloud-${createHash('sha1').update(bytes).digest('hex').slice(0, 16)}`;
    this.key = GlobalFonts.register(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), this.family);
    if (!this.key) throw new Error('The font could not be loaded for drawing');
    this.middle = (metrics.ascender + metrics.descender) / 2 / metrics.unitsPerEm;
  }

  /** Whether the font maps every character of the text. */
  covers(text: string): boolean {
    for (const ch of text) if (!this.codePoints.has(ch.codePointAt(0) ?? 0)) return false;
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

  /** Frees the font from Skia. */
  close(): void {
    if (this.key) GlobalFonts.remove(this.key);
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
