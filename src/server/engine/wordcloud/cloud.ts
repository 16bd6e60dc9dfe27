import { seededRandom } from '../../../lib/seeded-random.ts';
import { loadSubsetFace, loadSubsetFaceFromFile } from '../hb-subset.ts';
import { acquireFace, type FaceSource } from '../text/font-registry.ts';
import { encodeWoff2Fast } from '../woff2-fast.ts';
import { PALETTES, type PaletteName, paletteColors, pictureColors } from './colors.ts';
import { drawCloud, WordFont } from './draw.ts';
import { layoutWords, type Mask, type Orientation, type PlacedWord } from './layout.ts';
import { characterMask, type PictureMask, pictureMask, rectangleMask } from './mask.ts';
import { cloudSvgOutlines, cloudSvgText } from './svg.ts';
import type { WeightedWord } from './words.ts';

/** What the cloud is shaped by: nothing (the canvas), a picture, or a character of a font. */
export type CloudShape =
  | { kind: 'none' }
  | { kind: 'picture'; bytes: Uint8Array; threshold: number }
  | { kind: 'character'; character: string; font: WordFont };

/** How the words are coloured: a palette, or the picture under each word. */
export type CloudColors = { palette: PaletteName } | { fromPicture: true; fallback: PaletteName };

export interface CloudRequest {
  words: readonly WeightedWord[];
  font: WordFont;
  familyName: string;
  width: number;
  height: number;
  shape: CloudShape;
  orientation: Orientation;
  verticalText: boolean;
  colors: CloudColors;
  /** A CSS colour, or null for a transparent background. */
  background: string | null;
  seed: number;
}

/** A laid-out cloud: its words with colours, and the words left out. */
export interface Cloud {
  words: Array<PlacedWord & { color: string }>;
  /** Words with a character the font lacks. */
  missing: string[];
  /** Words that found no room. */
  dropped: string[];
  mask: Mask;
}

/** Takes a face from the font registry for drawing clouds; `close()` the answer to give it back. */
export function loadWordFont(source: FaceSource): WordFont {
  const face = acquireFace(source);
  return new WordFont(face, () =>
    'bytes' in source ? loadSubsetFace(source.bytes) : loadSubsetFaceFromFile(source.path),
  );
}

async function maskOf(request: CloudRequest): Promise<PictureMask> {
  const { shape, width, height } = request;
  switch (shape.kind) {
    case 'none':
      return rectangleMask(width, height);
    case 'picture':
      return pictureMask(shape.bytes, width, height, shape.threshold);
    case 'character':
      return characterMask(shape.font, shape.character, width, height);
  }
}

/** Lays out and colours a cloud. */
export async function makeCloud(request: CloudRequest): Promise<Cloud> {
  const mask = await maskOf(request);
  const missing: string[] = [];
  const usable = request.words.filter((word) => {
    if (request.font.covers(word.text)) return true;
    missing.push(word.text);
    return false;
  });
  const layout = layoutWords(usable, mask, {
    orientation: request.orientation,
    verticalText: request.verticalText,
    seed: request.seed,
    ink: (form, scale) => request.font.ink(form, scale),
  });
  const random = seededRandom(request.seed ^ 0x5bd1e995);
  const colors =
    'fromPicture' in request.colors && mask.rgba
      ? pictureColors(
          layout.placed,
          { width: mask.width, height: mask.height, rgba: mask.rgba },
          PALETTES[request.colors.fallback][0],
        )
      : paletteColors(
          layout.placed,
          PALETTES['palette' in request.colors ? request.colors.palette : request.colors.fallback],
          random,
        );
  const words = layout.placed.map((word, i) => ({ ...word, color: colors[i] as string }));
  return { words, missing, dropped: layout.dropped, mask };
}

/** The cloud as a PNG. */
export async function cloudPng(request: CloudRequest, cloud: Cloud): Promise<Uint8Array> {
  const canvas = drawCloud(request.font, cloud.words, request, request.background);
  return new Uint8Array(await canvas.encode('png'));
}

/** The cloud as SVG: words as text in an embedded subset of the font, or as outlines. */
export async function cloudSvg(request: CloudRequest, cloud: Cloud, as: 'text' | 'outlines'): Promise<string> {
  const options = {
    width: request.width,
    height: request.height,
    background: request.background,
    familyName: request.familyName,
  };
  const codePoints = new Set<number>();
  for (const word of cloud.words) for (const ch of word.text) codePoints.add(ch.codePointAt(0) ?? 0);
  const subset = request.font.subset(codePoints);
  if (as === 'outlines') return cloudSvgOutlines(request.font, subset, cloud.words, options);
  return cloudSvgText(request.font, cloud.words, encodeWoff2Fast(subset, 9), options);
}
