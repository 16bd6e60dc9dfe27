import { randomBytes, randomInt } from 'node:crypto';
import { type Canvas, createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import type { SettingFace } from '../engine/text/typeset.ts';
import { CAPTCHA_HEIGHT, CAPTCHA_WIDTH, drawBackground } from './captcha-art.ts';

const BODY = 42;
const KNOB = 7;
/** Where the piece's square body starts inside the strip: room for a knob on the left. */
const INSET = KNOB + 2;
/** Width of the piece image (the jigsaw strip): the 42 px body with room for a knob on either side. */
export const PIECE_WIDTH = BODY + 2 * INSET;
/** The fewest pixels between the left edge and the hole, so the piece never starts on it. */
export const MIN_X = PIECE_WIDTH + 12;
/** The most the hole's left edge can be from the image's left edge. */
export const MAX_X = CAPTCHA_WIDTH - PIECE_WIDTH - 2;
/** The piece's body top lies between these, leaving room for a knob above or below. */
const MIN_Y = KNOB + 4;
const MAX_Y = CAPTCHA_HEIGHT - BODY - KNOB - 4;
/** The range the hole's top may be drawn in (for picking a random one). */
export const PIECE_Y_RANGE = { min: MIN_Y, max: MAX_Y } as const;

/** One puzzle: the two images as base64 PNG (no data: prefix, as AJ-Captcha sends them) and the answer. */
export interface Puzzle {
  originalImageBase64: string;
  jigsawImageBase64: string;
  /** Left edge of the hole in background pixels: where the piece strip's left edge belongs. */
  x: number;
}

/** What each side of a piece does: a knob out, a notch in, or nothing. */
type Side = 'out' | 'in' | 'flat';
/** A piece's outline, side by side: top, right, bottom, left. */
type Shape = readonly [Side, Side, Side, Side];

/** Every outline there is: each of the four sides a knob, a notch or flat. */
const ALL_SHAPES: Shape[] = (() => {
  const sides: Side[] = ['out', 'in', 'flat'];
  const all: Shape[] = [];
  for (const a of sides) for (const b of sides) for (const c of sides) for (const d of sides) all.push([a, b, c, d]);
  return all;
})();

// The pieces: two or three shaped sides, at most two of them knobs, so that every piece has
// outlines that keep its knobs and still differ in two sides (see lookalikeShapes).
const SHAPES = ALL_SHAPES.filter((shape) => {
  const shaped = shape.filter((side) => side !== 'flat').length;
  return shaped >= 2 && shaped <= 3 && shape.filter((side) => side === 'out').length <= 2;
});

/** How many sides of two outlines differ. */
const difference = (a: Shape, b: Shape) => a.filter((side, i) => side !== b[i]).length;

/** Outlines that differ from `shape` in two sides or more. */
const otherShapes = (shape: Shape) => ALL_SHAPES.filter((other) => difference(other, shape) >= 2);

/**
 * Outlines that keep every knob of `shape` and differ elsewhere: a piece laid over such a hole
 * covers dark pixels with all of its own, so only the notches and flat sides give it away.
 */
const lookalikeShapes = (shape: Shape) =>
  otherShapes(shape).filter((other) => shape.every((side, i) => side !== 'out' || other[i] === 'out'));

// One side of the body from (x0, y0) to (x1, y1), with a half-circle at its middle bulging out of
// the body (`out`) or into it (`in`); the path runs clockwise, so "out" is to the left of travel.
function side(ctx: SKRSContext2D, x0: number, y0: number, x1: number, y1: number, kind: Side): void {
  if (kind !== 'flat') {
    const mx = (x0 + x1) / 2;
    const my = (y0 + y1) / 2;
    const dx = Math.sign(x1 - x0);
    const dy = Math.sign(y1 - y0);
    const start = Math.atan2(-dy, -dx);
    ctx.lineTo(mx - dx * KNOB, my - dy * KNOB);
    // Clockwise in screen space bulges to the left of travel (outward for a clockwise outline).
    ctx.arc(mx, my, kind === 'out' ? KNOB : KNOB - 1, start, start + Math.PI, kind === 'in');
  }
  ctx.lineTo(x1, y1);
}

/** Traces a piece whose body's top-left corner is at (left, top). */
function piecePath(ctx: SKRSContext2D, left: number, top: number, shape: Shape): void {
  const [topSide, rightSide, bottomSide, leftSide] = shape;
  const right = left + BODY;
  const bottom = top + BODY;
  ctx.beginPath();
  ctx.moveTo(left, top);
  side(ctx, left, top, right, top, topSide);
  side(ctx, right, top, right, bottom, rightSide);
  side(ctx, right, bottom, left, bottom, bottomSide);
  side(ctx, left, bottom, left, top, leftSide);
  ctx.closePath();
}

/**
 * A shaded hole with a light rim, where a piece belongs (or seems to): the picture is darkened by
 * half, as the classic puzzle does, but the picture shown inside is the one `sourceX` names, so
 * what a hole shows need not be what lies under it.
 */
function drawHole(ctx: SKRSContext2D, source: Canvas, left: number, top: number, shape: Shape, sourceX: number): void {
  ctx.save();
  piecePath(ctx, left + INSET, top, shape);
  ctx.clip();
  ctx.drawImage(source, left - sourceX, 0);
  ctx.fillStyle = 'rgba(20,20,20,0.5)';
  ctx.fill();
  ctx.restore();
  piecePath(ctx, left + INSET, top, shape);
  ctx.strokeStyle = 'rgba(255,255,255,0.85)';
  ctx.lineWidth = 1.5;
  ctx.stroke();
}

/** Somewhere else in the picture, for a hole to show: at least a piece away from `x`. */
function elsewhere(x: number): number {
  const span = MAX_X - MIN_X;
  return MIN_X + ((x - MIN_X + PIECE_WIDTH + randomInt(span - 2 * PIECE_WIDTH)) % span);
}

/** Adds grain of ±`amount` to every colour channel: no two puzzles share a pixel exactly. */
function addNoise(canvas: Canvas, amount: number): void {
  const ctx = canvas.getContext('2d');
  const image = ctx.getImageData(0, 0, canvas.width, canvas.height);
  const data = image.data;
  const random = randomBytes(data.length);
  const span = 2 * amount + 1;
  for (let i = 0; i < data.length; i += 4) {
    if (data[i + 3] === 0) continue;
    for (let c = 0; c < 3; c += 1) data[i + c] = (data[i + c] ?? 0) + ((random[i + c] ?? 0) % span) - amount;
  }
  ctx.putImageData(image, 0, 0);
}

/** Picks decoy places: left edges at least a piece apart from the real hole and from each other. */
function decoyPlaces(x: number, count: number): number[] {
  const taken = [x];
  const places: number[] = [];
  for (let attempt = 0; attempt < 40 && places.length < count; attempt += 1) {
    const candidate = randomInt(MIN_X, MAX_X + 1);
    if (taken.every((other) => Math.abs(other - candidate) >= PIECE_WIDTH + 2)) {
      taken.push(candidate);
      places.push(candidate);
    }
  }
  return places;
}

/**
 * Draws `count` backgrounds, their inscriptions set in the faces given (needed only until it settles).
 * Each takes Skia 15–20 ms on the server's own thread, so the event loop gets a turn between them:
 * drawn in one go, the twelve held every request waiting behind the first puzzle for some 200 ms.
 */
export async function drawBackgrounds(count: number, faces: readonly SettingFace[]): Promise<Canvas[]> {
  const backgrounds: Canvas[] = [];
  for (let i = 0; i < count; i++) {
    if (i > 0) await new Promise((resolve) => setImmediate(resolve));
    backgrounds.push(drawBackground(7919 * (i + 1), faces));
  }
  return backgrounds;
}

/** The set of backgrounds the puzzles are cut from, drawn once per process. */
export class BackgroundSet {
  private readonly backgrounds: Canvas[];

  /** A set of backgrounds drawn by drawBackgrounds. */
  constructor(backgrounds: Canvas[]) {
    this.backgrounds = backgrounds;
  }

  /** How many backgrounds there are. */
  get size(): number {
    return this.backgrounds.length;
  }

  /**
   * Cuts a puzzle out of background `index` with the hole at (x, y): the piece strip carries the
   * background's own pixels in an outline picked at random, and the background shows its hole
   * beside up to `decoys` holes of other outlines at about the same height; both images get grain.
   */
  async cut(index: number, x: number, y: number, decoys = 2): Promise<Puzzle> {
    const source = this.backgrounds[index % this.backgrounds.length];
    if (!source) throw new Error('No captcha backgrounds');
    const top = Math.min(MAX_Y, Math.max(MIN_Y, Math.round(y)));
    const left = Math.min(MAX_X, Math.max(MIN_X, Math.round(x)));
    const shape = SHAPES[randomInt(SHAPES.length)] ?? SHAPES[0];
    if (!shape) throw new Error('No piece shapes');

    const piece = createCanvas(PIECE_WIDTH, CAPTCHA_HEIGHT);
    const pc = piece.getContext('2d');
    pc.save();
    piecePath(pc, INSET, top, shape);
    pc.clip();
    pc.drawImage(source, -left, 0);
    pc.restore();
    addNoise(piece, 10);
    piecePath(pc, INSET, top, shape);
    pc.strokeStyle = 'rgba(255,255,255,0.85)';
    pc.lineWidth = 1.5;
    pc.stroke();

    const background = createCanvas(CAPTCHA_WIDTH, CAPTCHA_HEIGHT);
    const bc = background.getContext('2d');
    bc.drawImage(source, 0, 0);
    // The decoys have other outlines. The first keeps the piece's knobs and shows exactly the
    // piece's own picture darkened by half, which is what matching the piece's pixels against the
    // holes looks for, while the real hole shows another part of the picture: only the outline
    // tells them apart.
    decoyPlaces(left, decoys).forEach((place, i) => {
      const decoyTop = i === 0 ? top : Math.min(MAX_Y, Math.max(MIN_Y, top + randomInt(-8, 9)));
      const outlines = i === 0 ? lookalikeShapes(shape) : otherShapes(shape);
      const outline = outlines[randomInt(outlines.length)] ?? shape;
      drawHole(bc, source, place, decoyTop, outline, i === 0 ? left : elsewhere(place));
    });
    drawHole(bc, source, left, top, shape, elsewhere(left));
    addNoise(background, 10);

    const [originalPng, piecePng] = await Promise.all([background.encode('png'), piece.encode('png')]);
    return {
      originalImageBase64: originalPng.toString('base64'),
      jigsawImageBase64: piecePng.toString('base64'),
      x: left,
    };
  }
}
