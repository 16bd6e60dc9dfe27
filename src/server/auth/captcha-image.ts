import { type Canvas, createCanvas, GlobalFonts, type SKRSContext2D } from '@napi-rs/canvas';
import { CAPTCHA_HEIGHT, CAPTCHA_WIDTH, drawBackground } from './captcha-art.ts';

/** Width of the piece image (the jigsaw strip): the 42 px body, its right knob and a margin. */
export const PIECE_WIDTH = 52;
const BODY = 42;
const KNOB = 7;
/** The fewest pixels between the left edge and the hole, so the piece never starts on it. */
export const MIN_X = PIECE_WIDTH + 16;
/** The most the hole's left edge can be from the image's left edge. */
export const MAX_X = CAPTCHA_WIDTH - PIECE_WIDTH - 4;
/** The piece's body top lies between these, leaving room for the top knob. */
const MIN_Y = KNOB + 4;
const MAX_Y = CAPTCHA_HEIGHT - BODY - 4;

/** One puzzle: the two images as base64 PNG (no data: prefix, as AJ-Captcha sends them) and the answer. */
export interface Puzzle {
  originalImageBase64: string;
  jigsawImageBase64: string;
  /** Left edge of the hole in background pixels: where the piece strip's left edge belongs. */
  x: number;
}

// The classic jigsaw piece: a square body with a knob on top and on the right and a notch on the
// left, drawn relative to the strip's left edge.
function piecePath(ctx: SKRSContext2D, top: number): void {
  const left = 1;
  ctx.beginPath();
  ctx.moveTo(left, top);
  ctx.lineTo(left + BODY / 2 - KNOB, top);
  ctx.arc(left + BODY / 2, top, KNOB, Math.PI, 0, false);
  ctx.lineTo(left + BODY, top);
  ctx.lineTo(left + BODY, top + BODY / 2 - KNOB);
  ctx.arc(left + BODY, top + BODY / 2, KNOB, -Math.PI / 2, Math.PI / 2, false);
  ctx.lineTo(left + BODY, top + BODY);
  ctx.lineTo(left, top + BODY);
  ctx.lineTo(left, top + BODY / 2 + KNOB - 1);
  ctx.arc(left, top + BODY / 2, KNOB - 1, Math.PI / 2, -Math.PI / 2, true);
  ctx.closePath();
}

/** The set of backgrounds, drawn once per process; a font family name is used for the inscriptions. */
export class BackgroundSet {
  private readonly backgrounds: Canvas[];

  constructor(count: number, fontFamily: string | undefined) {
    this.backgrounds = Array.from({ length: count }, (_, i) => drawBackground(7919 * (i + 1), fontFamily));
  }

  /** How many backgrounds there are. */
  get size(): number {
    return this.backgrounds.length;
  }

  /**
   * Cuts a puzzle out of background `index` with the hole at (x, y): the piece strip carries the
   * background's own pixels, and the background shows a shaded hole with a light rim.
   */
  async cut(index: number, x: number, y: number): Promise<Puzzle> {
    const source = this.backgrounds[index % this.backgrounds.length];
    if (!source) throw new Error('No captcha backgrounds');
    const top = Math.min(MAX_Y, Math.max(MIN_Y, Math.round(y)));
    const left = Math.min(MAX_X, Math.max(MIN_X, Math.round(x)));

    const piece = createCanvas(PIECE_WIDTH, CAPTCHA_HEIGHT);
    const pc = piece.getContext('2d');
    pc.save();
    piecePath(pc, top);
    pc.clip();
    pc.drawImage(source, -left, 0);
    pc.restore();
    piecePath(pc, top);
    pc.strokeStyle = 'rgba(255,255,255,0.85)';
    pc.lineWidth = 1.5;
    pc.stroke();

    const background = createCanvas(CAPTCHA_WIDTH, CAPTCHA_HEIGHT);
    const bc = background.getContext('2d');
    bc.drawImage(source, 0, 0);
    bc.save();
    bc.translate(left, 0);
    piecePath(bc, top);
    bc.fillStyle = 'rgba(20,20,20,0.5)';
    bc.fill();
    bc.strokeStyle = 'rgba(255,255,255,0.6)';
    bc.lineWidth = 1;
    bc.stroke();
    bc.restore();

    const [originalPng, piecePng] = await Promise.all([background.encode('png'), piece.encode('png')]);
    return {
      originalImageBase64: originalPng.toString('base64'),
      jigsawImageBase64: piecePng.toString('base64'),
      x: left,
    };
  }
}

/** The range the hole's top may be drawn in (for picking a random one). */
export const PIECE_Y_RANGE = { min: MIN_Y, max: MAX_Y } as const;

/** Registers font bytes under an alias for the inscriptions; answers the alias, or undefined when Skia refuses them. */
export function registerCaptchaFont(bytes: Uint8Array, alias = 'captcha-brush'): string | undefined {
  const key = GlobalFonts.register(Buffer.from(bytes), alias);
  return key ? alias : undefined;
}
