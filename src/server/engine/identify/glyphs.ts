import { binarise, flattenGround, type GrayImage, INK_DEPTH, type InkMask } from './binarise.ts';
import { describeGlyph, type GlyphInk } from './features.ts';
import type { GlyphCrop } from './rerank.ts';
import {
  type Box,
  estimateSkew,
  findLines,
  rotateGray,
  type TextLine,
  withoutEdges,
  withoutSpecks,
} from './segment.ts';

// The glyph finder end to end (workflow task 125): ink, skew, lines and character boxes of a
// picture, and the descriptors of the boxes a person confirmed.

/** What the finder saw in a picture. */
export interface FoundGlyphs {
  /** The picture turned upright, its ground taken out: dark text on white (the boxes are in its pixels). */
  gray: GrayImage;
  /** Its ink, ink = 1, without specks. */
  mask: InkMask;
  /** How much ink each pixel holds (0 ground, 1 ink), read from the grey levels, for the descriptors. */
  coverage: GlyphInk;
  /** The turn applied, in degrees. */
  angle: number;
  /** Whether the picture's text was lighter than its ground (`gray` is dark on light either way). */
  lightText: boolean;
  lines: TextLine[];
}

/** Finds the text lines and character boxes of a grey picture, straightening it first. */
export function findGlyphs(picture: GrayImage): FoundGlyphs {
  // From here on the picture is dark text on an even white ground (flattenGround), whatever its
  // ground was: every later step, the reader's included, sees one kind of picture.
  const { image: gray, lightText } = flattenGround(picture);
  const first = binarise(gray, { lightText: false });
  let mask = withoutSpecks(withoutEdges(first.mask));
  const skew = estimateSkew(mask);
  let upright = gray;
  if (Math.abs(skew) >= 0.3) {
    upright = rotateGray(gray, skew);
    mask = withoutSpecks(withoutEdges(binarise(upright, { lightText: false }).mask));
  }
  return {
    gray: upright,
    mask,
    coverage: coverageOf(upright, mask, false),
    angle: Math.abs(skew) >= 0.3 ? skew : 0,
    lightText,
    lines: findLines(mask),
  };
}

/**
 * The share of ink in each pixel, from the grey level between the ink's and the ground's mean
 * levels. Blur and JPEG move ink about but keep its sum, so weights measured on this stay true
 * where a threshold would thicken or thin the strokes. Below-zero values (grain on the ground)
 * are kept, so grain averages out instead of adding ink.
 */
export function coverageOf(gray: GrayImage, mask: InkMask, lightText: boolean): GlyphInk {
  const inkHistogram = new Float64Array(256);
  let inkCount = 0;
  let groundSum = 0;
  for (let i = 0; i < gray.data.length; i++) {
    const v = (lightText ? 255 - (gray.data[i] as number) : gray.data[i]) as number;
    if (mask.data[i]) {
      (inkHistogram[v] as number)++;
      inkCount++;
    } else groundSum += v;
  }
  const ground = gray.data.length > inkCount ? groundSum / (gray.data.length - inkCount) : 255;
  // The core of the strokes: the darkest tenth of the ink (its mean counts the soft edges too).
  let core = 0;
  for (let v = 0, seen = 0; v < 256; v++) {
    seen += inkHistogram[v] as number;
    if (seen >= inkCount * 0.1) {
      core = v;
      break;
    }
  }
  // The picture's ground was taken out with ink at least INK_DEPTH below it (flattenGround), so
  // its faint strokes already read as faint; the same bound holds here.
  core = Math.min(core, ground * (1 - INK_DEPTH));
  const span = Math.max(16, ground - core);
  const data = new Float32Array(gray.data.length);
  for (let i = 0; i < data.length; i++) {
    const v = (lightText ? 255 - (gray.data[i] as number) : gray.data[i]) as number;
    data[i] = Math.max(-1, Math.min(1, (ground - v) / span));
  }
  return { width: gray.width, height: gray.height, data };
}

/** The box clipped to the picture, or null when nothing of it is inside. */
export function clipBox(box: Box, width: number, height: number): Box | null {
  const x0 = Math.max(0, Math.floor(box.x));
  const y0 = Math.max(0, Math.floor(box.y));
  const x1 = Math.min(width, Math.ceil(box.x + box.width));
  const y1 = Math.min(height, Math.ceil(box.y + box.height));
  return x1 - x0 >= 1 && y1 - y0 >= 1 ? { x: x0, y: y0, width: x1 - x0, height: y1 - y0 } : null;
}

/** The box of the ink inside a box (so a loose box is fine), or null when it holds none. */
function inkWithin(mask: InkMask, box: Box): Box | null {
  const clipped = clipBox(box, mask.width, mask.height);
  if (!clipped) return null;
  let minX = Number.POSITIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxX = -1;
  let maxY = -1;
  for (let y = clipped.y; y < clipped.y + clipped.height; y++) {
    for (let x = clipped.x; x < clipped.x + clipped.width; x++) {
      if (!mask.data[y * mask.width + x]) continue;
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
    }
  }
  return maxX < 0 ? null : { x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1 };
}

/** The descriptor of the ink inside a box (its ink box, so a loose box is fine), or null when it holds none. */
export function describeBox(found: Pick<FoundGlyphs, 'mask' | 'coverage'>, box: Box): Float32Array | null {
  const ink = inkWithin(found.mask, box);
  return ink ? describeGlyph(found.coverage, ink) : null;
}

/**
 * The picture's ink around the glyph in a box, for the second look at the best candidates
 * (rerank.ts): the whole coverage and the glyph's ink box in it, or null when the box holds no ink.
 */
export function cropOfBox(found: Pick<FoundGlyphs, 'mask' | 'coverage'>, box: Box): GlyphCrop | null {
  const ink = inkWithin(found.mask, box);
  if (!ink) return null;
  const { coverage } = found;
  // The box a person or the cutter drew can clip a stroke's soft edge by a pixel or two, which a
  // pixel comparison reads as a thinner stroke: the ink box grows while the next row or column
  // still holds half-covered pixels, by at most a tenth of the glyph.
  const most = Math.max(2, Math.round(0.1 * Math.max(ink.width, ink.height)));
  const inked = (x0: number, y0: number, x1: number, y1: number) => {
    if (x0 < 0 || y0 < 0 || x1 > coverage.width || y1 > coverage.height) return false;
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x1; x++) if ((coverage.data[y * coverage.width + x] as number) >= 0.5) return true;
    }
    return false;
  };
  let { x: x0, y: y0 } = ink;
  let x1 = ink.x + ink.width;
  let y1 = ink.y + ink.height;
  for (let grown = 0; grown < most && inked(x0 - 1, y0, x0, y1); grown++) x0--;
  for (let grown = 0; grown < most && inked(x1, y0, x1 + 1, y1); grown++) x1++;
  for (let grown = 0; grown < most && inked(x0, y0 - 1, x1, y0); grown++) y0--;
  for (let grown = 0; grown < most && inked(x0, y1, x1, y1 + 1); grown++) y1++;
  // The crop: the ink box and a margin for the blur around it, nothing of the neighbours beyond.
  const pad = Math.max(2, Math.round(0.08 * Math.max(x1 - x0, y1 - y0)));
  const area = clipBox(
    { x: x0 - pad, y: y0 - pad, width: x1 - x0 + 2 * pad, height: y1 - y0 + 2 * pad },
    coverage.width,
    coverage.height,
  );
  if (!area) return null;
  const data = new Float32Array(area.width * area.height);
  for (let y = 0; y < area.height; y++) {
    const from = (area.y + y) * coverage.width + area.x;
    for (let x = 0; x < area.width; x++) data[y * area.width + x] = coverage.data[from + x] as number;
  }
  return {
    ink: { width: area.width, height: area.height, data },
    box: { x: x0 - area.x, y: y0 - area.y, width: x1 - x0, height: y1 - y0 },
  };
}

/**
 * Whether a box holds a Chinese character rather than a Latin letter, digit or sign: it is at least
 * 0.7 of its line's height wide (Chinese characters fill a square; 1, l, -, + and O do not), in a
 * line whose glyphs are mostly that wide (a line of Latin text keeps every reading). A box outside
 * every line is judged against its own height.
 */
export function looksHan(found: Pick<FoundGlyphs, 'lines'>, box: Box): boolean {
  const middle = box.y + box.height / 2;
  const line = found.lines.find(
    (candidate) => middle >= candidate.box.y && middle < candidate.box.y + candidate.box.height,
  );
  const height = line ? line.box.height : box.height;
  if (box.width < 0.7 * height) return false;
  if (!line || line.glyphs.length < 3) return true;
  const wide = line.glyphs.filter((glyph) => glyph.width >= 0.7 * height).length;
  return wide >= line.glyphs.length / 2;
}
