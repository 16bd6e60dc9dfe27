import { type Canvas, createCanvas } from '@napi-rs/canvas';
import { acquireFace, type DrawingFace, type FaceSource } from '../text/font-registry.ts';
import { describeGlyph, type GlyphInk } from './features.ts';

// Library faces drawn one character at a time, the references a picture's glyphs are compared
// with. Skia (@napi-rs/canvas) draws them; the benchmark's pictures come from Chromium, another
// renderer, so the measure is tried against drawing differences as well as the picture's.
//
// Faces are taken from the process's one font registry (engine/text/font-registry.ts): Skia keeps
// one font collection for every thread, so a name of this module's own per worker would let two
// workers register different faces under one name and draw in each other's font.

/** Size the references are drawn at, in pixels per em. */
const REFERENCE_SIZE = 72;

/** A library face held for drawing reference glyphs. Call close() to give it back. */
export class ReferenceFont {
  private readonly face: DrawingFace;
  private readonly canvas: Canvas = createCanvas(REFERENCE_SIZE * 2, REFERENCE_SIZE * 2);

  /** Holds a face (a font file, or its bytes) for drawing; throws when Skia cannot read it. */
  constructor(source: FaceSource) {
    this.face = acquireFace(source);
  }

  /** Whether the font maps the character. */
  has(character: string): boolean {
    return this.face.has(character.codePointAt(0) ?? -1);
  }

  /** The character's ink (alpha as 0–1), or null when the font lacks it or draws nothing. */
  draw(character: string): GlyphInk | null {
    if (!this.has(character)) return null;
    const side = this.canvas.width;
    const ctx = this.canvas.getContext('2d');
    ctx.clearRect(0, 0, side, side);
    ctx.font = `${REFERENCE_SIZE}px "${this.face.family}"`;
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

  /** Gives the face back to the registry (it stays registered while another holder draws with it). */
  close(): void {
    this.face.release();
  }
}
