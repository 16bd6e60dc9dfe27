import { createCanvas, Path2D } from '@napi-rs/canvas';
import * as fontkit from 'fontkit';
import { readSfnt } from './sfnt.ts';
import { cmapOf } from './sfnt-info.ts';

// Whether two faces are the same design: the final files of an accepted submission must be the
// face the reviewers saw. A face may be re-exported, converted between TrueType and CFF outlines,
// hinted or given more characters; it may not lose characters or have its letters redrawn.
//
// Characters: every character the reviewed face maps, the final face maps too. Outlines: a sample
// of characters (those of the specimen the reviewers saw, and more spread over the face) is drawn
// from both faces at OUTLINE_PX pixels to the em. A pixel of ink in one drawing with no ink of the
// other within one pixel counts as a difference, so outlines may move by up to one pixel (1 % of
// the em: 10 units of a 1000-unit em) without counting; a character is redrawn when more than
// OUTLINE_TOLERANCE of its ink differs. Drawing compares what the reader sees, whatever the curves
// are made of, where comparing points would call every TrueType-to-CFF conversion a new design.

/** Pixels to the em the sampled characters are drawn at: one pixel is 1 % of the em. */
export const OUTLINE_PX = 100;
/** The share of a character's ink that may differ (beyond one pixel's distance) for it to be the same. */
export const OUTLINE_TOLERANCE = 0.01;
/** Characters always sampled when the face has them: those of the specimens reviewers judge by. */
export const OUTLINE_SAMPLE_TEXT =
  '永和九年岁在癸丑暮春之初天地玄黄宇宙洪荒日月盈昃辰宿列张字体是文字的衣裳AaBbGgQRSegk&0259';
/** How many more characters are sampled, spread evenly over the rest of the reviewed face. */
export const OUTLINE_SAMPLE_SPREAD = 40;
/** How many characters of each kind of difference a comparison lists. */
const LISTED = 12;

/** How a final face differs from the reviewed one. */
export interface FaceComparison {
  /** How many characters the reviewed face maps and the final one does not, and the first of them. */
  missingCount: number;
  missing: number[];
  /** How many characters were compared by their outlines. */
  sampled: number;
  /** How many sampled characters are drawn differently, and the first of them with the share of ink that differs. */
  redrawnCount: number;
  redrawn: Array<{ codePoint: number; difference: number }>;
}

/** The characters whose outlines are compared: the specimen's, then an even spread of the rest. */
export function outlineSample(codePoints: readonly number[]): number[] {
  const mapped = new Set(codePoints);
  const fixed = [...new Set([...OUTLINE_SAMPLE_TEXT].map((ch) => ch.codePointAt(0) ?? 0))].filter((cp) =>
    mapped.has(cp),
  );
  const chosen = new Set(fixed);
  const rest = [...mapped].filter((cp) => !chosen.has(cp) && cp > 0x20).sort((a, b) => a - b);
  const step = rest.length / Math.min(OUTLINE_SAMPLE_SPREAD, rest.length || 1);
  for (let i = 0; i < OUTLINE_SAMPLE_SPREAD && i * step < rest.length; i++) {
    chosen.add(rest[Math.floor(i * step)] as number);
  }
  return [...chosen];
}

type Font = fontkit.Font;

function open(bytes: Uint8Array): Font {
  // fontkit reads any Uint8Array; its types ask for a Buffer.
  const font = fontkit.create(bytes as Buffer);
  if ('fonts' in font) throw new Error('a collection is not one face');
  return font;
}

const SIDE = Math.round(OUTLINE_PX * 1.6);

/** Draws characters of one font at OUTLINE_PX to the em on one reused canvas 1.6 em square. */
function drawer(font: Font): (codePoint: number) => Uint8Array {
  const canvas = createCanvas(SIDE, SIDE);
  const context = canvas.getContext('2d');
  const scale = OUTLINE_PX / font.unitsPerEm;
  return (codePoint) => {
    context.setTransform(1, 0, 0, 1, 0, 0);
    context.clearRect(0, 0, SIDE, SIDE);
    // The em box sits in the middle, baseline 1.2 em from the top, so overhangs stay on the canvas.
    context.setTransform(scale, 0, 0, -scale, OUTLINE_PX * 0.3, OUTLINE_PX * 1.2);
    const path = font.glyphForCodePoint(codePoint).path.toSVG();
    if (path) context.fill(new Path2D(path), 'nonzero');
    const { data } = context.getImageData(0, 0, SIDE, SIDE);
    const ink = new Uint8Array(SIDE * SIDE);
    for (let i = 0; i < ink.length; i++) ink[i] = (data[i * 4 + 3] as number) >= 128 ? 1 : 0;
    return ink;
  };
}

/** The ink grown by one pixel in every direction (a 3 × 3 dilation, done as two passes). */
function grown(ink: Uint8Array): Uint8Array {
  const across = new Uint8Array(ink.length);
  for (let y = 0; y < SIDE; y++) {
    const row = y * SIDE;
    for (let x = 0; x < SIDE; x++) {
      across[row + x] = ink[row + x] || (x > 0 && ink[row + x - 1]) || (x < SIDE - 1 && ink[row + x + 1]) ? 1 : 0;
    }
  }
  const out = new Uint8Array(ink.length);
  for (let i = 0; i < ink.length; i++) {
    out[i] = across[i] || (i >= SIDE && across[i - SIDE]) || (i < ink.length - SIDE && across[i + SIDE]) ? 1 : 0;
  }
  return out;
}

/** The share of ink of either drawing with no ink of the other within one pixel. */
export function inkDifference(a: Uint8Array, b: Uint8Array): number {
  const nearA = grown(a);
  const nearB = grown(b);
  let ink = 0;
  let differing = 0;
  for (let i = 0; i < a.length; i++) {
    if (!a[i] && !b[i]) continue;
    ink++;
    if ((a[i] && !nearB[i]) || (b[i] && !nearA[i])) differing++;
  }
  return ink === 0 ? 0 : differing / ink;
}

/** How the `final` face differs from the `reviewed` one (both single faces: TTF or OTF). */
export function compareFaces(reviewed: Uint8Array, final: Uint8Array): FaceComparison {
  const reviewedMap = cmapOf(readSfnt(reviewed));
  const finalMap = cmapOf(readSfnt(final));
  const missing = [...reviewedMap.keys()].filter((cp) => !finalMap.has(cp)).sort((a, b) => a - b);
  const sample = outlineSample([...reviewedMap.keys()].filter((cp) => finalMap.has(cp)));
  const before = drawer(open(reviewed));
  const after = drawer(open(final));
  const redrawn: FaceComparison['redrawn'] = [];
  for (const codePoint of sample) {
    const difference = inkDifference(before(codePoint), after(codePoint));
    if (difference > OUTLINE_TOLERANCE) redrawn.push({ codePoint, difference });
  }
  return {
    missingCount: missing.length,
    missing: missing.slice(0, LISTED),
    sampled: sample.length,
    redrawnCount: redrawn.length,
    redrawn: redrawn.slice(0, LISTED),
  };
}
