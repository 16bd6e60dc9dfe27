import { type Canvas, createCanvas, GlobalFonts } from '@napi-rs/canvas';
import { readSfnt } from '../sfnt.ts';
import { cmapOf } from '../sfnt-info.ts';
import { describeGlyph, type GlyphInk } from './features.ts';

// Library faces drawn one character at a time, the references a picture's glyphs are compared
// with. Skia (@napi-rs/canvas) draws them; the benchmark's pictures come from Chromium, another
// renderer, so the measure is tried against drawing differences as well as the picture's.

let registered = 0;

/** Size the references are drawn at, in pixels per em. */
const REFERENCE_SIZE = 72;

/** A font registered with Skia to draw reference glyphs. Call close() to free it. */
export class ReferenceFont {
  private readonly family: string;
  private readonly key: ReturnType<typeof GlobalFonts.register>;
  private readonly codePoints: ReadonlySet<number>;
  private readonly canvas: Canvas = createCanvas(REFERENCE_SIZE * 2, REFERENCE_SIZE * 2);

  /** Registers an SFNT (TTF or OTF) for drawing. */
  constructor(sfnt: Uint8Array) {
    this.codePoints = new Set(cmapOf(readSfnt(sfnt)).keys());
    // A name of its own per registration: hashing megabytes of font to name it cost more than drawing.
    this.family = `identify-${++registered}`;
    this.key = GlobalFonts.register(Buffer.from(sfnt.buffer, sfnt.byteOffset, sfnt.byteLength), this.family);
    if (!this.key) throw new Error('The font could not be loaded for drawing');
  }

  /** Whether the font maps the character. */
  has(character: string): boolean {
    return this.codePoints.has(character.codePointAt(0) ?? -1);
  }

  /** The character's ink (alpha as 0–1), or null when the font lacks it or draws nothing. */
  draw(character: string): GlyphInk | null {
    if (!this.has(character)) return null;
    const side = this.canvas.width;
    const ctx = this.canvas.getContext('2d');
    ctx.clearRect(0, 0, side, side);
    ctx.font = `${REFERENCE_SIZE}px "${this.family}"`;
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'center';
    ctx.fillStyle = '#000';
    ctx.fillText(character, side / 2, side / 2);
    const pixels = ctx.getImageData(0, 0, side, side).data;
    const data = new Float32Array(side * side);
    let any = false;
    for (let i = 0; i < data.length; i++) {
      data[i] = (pixels[i * 4 + 3] as number) / 255;
      if ((data[i] as number) >= 0.5) any = true;
    }
    return any ? { width: side, height: side, data } : null;
  }

  /** The descriptor of a character, or null when the font lacks it. */
  describe(character: string): Float32Array | null {
    const ink = this.draw(character);
    return ink ? describeGlyph(ink) : null;
  }

  /** Unregisters the font from Skia. */
  close(): void {
    if (this.key) GlobalFonts.remove(this.key);
  }
}
