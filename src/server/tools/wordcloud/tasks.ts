import { FontInputError } from '../../engine/font-errors.ts';
import { readSfnt } from '../../engine/sfnt.ts';
import { readSfntFile } from '../../engine/sfnt-file.ts';
import { familyNameOf } from '../../engine/sfnt-info.ts';
import { type CloudShape, cloudPng, cloudSvg, loadWordFont, makeCloud } from '../../engine/wordcloud/cloud.ts';
import type { PaletteName } from '../../engine/wordcloud/colors.ts';
import type { WordFont } from '../../engine/wordcloud/draw.ts';
import type { Orientation } from '../../engine/wordcloud/layout.ts';
import { countWords, type WeightedWord } from '../../engine/wordcloud/words.ts';
import { readStored, type StoredFace, storedFaceSource } from '../../fonts/drawing-faces.ts';

// The word cloud's work inside a tools worker: cut the text into words, read the fonts (kept for
// the next request, since a person adjusts one cloud many times), lay the words out and draw them.

/** Where a font is and how large it may expand (a library face names its SHA-256). */
export type CloudFontRef = StoredFace;

/** The shape as the worker takes it: a template's SVG, a stored picture, or a character. */
export type CloudShapeRef =
  | { kind: 'none' }
  | { kind: 'svg'; svg: string }
  | { kind: 'stored'; key: string }
  | { kind: 'character'; character: string; font: CloudFontRef };

export interface CloudTask {
  font: CloudFontRef;
  words: WeightedWord[] | undefined;
  text: string | undefined;
  limit: number;
  shape: CloudShapeRef;
  threshold: number;
  orientation: Orientation;
  verticalText: boolean;
  colors: PaletteName | 'picture';
  background: string | null;
  width: number;
  height: number;
  seed: number;
  format: 'png' | 'svg' | 'svg-outlines';
}

export interface CloudTaskResult {
  bytes: Uint8Array;
  mime: string;
  placed: number;
  dropped: string[];
  missing: string[];
}

interface LoadedFont {
  font: WordFont;
  familyName: string;
}

const fonts = new Map<string, LoadedFont>();
const MAX_FONTS = 4;

async function loadFont(ref: CloudFontRef): Promise<LoadedFont> {
  const id = `${ref.key}#${ref.faceIndex}`;
  const found = fonts.get(id);
  if (found) {
    fonts.delete(id);
    fonts.set(id, found);
    return found;
  }
  const source = await storedFaceSource(ref);
  // The name table alone, read by position from a library face's file.
  const names = 'bytes' in source ? readSfnt(source.bytes) : readSfntFile(source.path, ['name']);
  const loaded = { font: loadWordFont(source), familyName: familyNameOf(names) };
  fonts.set(id, loaded);
  if (fonts.size > MAX_FONTS) {
    const [oldest, dropped] = fonts.entries().next().value as [string, LoadedFont];
    fonts.delete(oldest);
    dropped.font.close();
  }
  return loaded;
}

/** Cuts text into the strongest `limit` words. */
export function cloudWordsTask(text: string, limit: number): WeightedWord[] {
  return countWords(text, limit);
}

async function shapeOf(ref: CloudShapeRef, threshold: number): Promise<CloudShape> {
  switch (ref.kind) {
    case 'none':
      return { kind: 'none' };
    case 'svg':
      return { kind: 'picture', bytes: new Uint8Array(Buffer.from(ref.svg)), threshold };
    case 'stored':
      return { kind: 'picture', bytes: await readStored(ref.key), threshold };
    case 'character': {
      const { font } = await loadFont(ref.font);
      if (!font.covers(ref.character)) {
        throw new FontInputError(
          'incompatible',
          'shape character missing',
          `这款字体里没有「${ref.character}」，换一个字或字体试试`,
        );
      }
      return { kind: 'character', character: ref.character, font };
    }
  }
}

/** Lays out and draws a cloud as PNG or SVG. */
export async function cloudTask(task: CloudTask): Promise<CloudTaskResult> {
  const words = task.words?.length ? task.words : countWords(task.text ?? '', task.limit);
  if (words.length === 0) {
    throw new FontInputError(
      'incompatible',
      'no words',
      '这段文字里没有可用的词（标点、数字和虚词不计），请换一段文字',
    );
  }
  const { font, familyName } = await loadFont(task.font);
  const request = {
    words,
    font,
    familyName,
    width: task.width,
    height: task.height,
    shape: await shapeOf(task.shape, task.threshold),
    orientation: task.orientation,
    verticalText: task.verticalText,
    colors: task.colors === 'picture' ? ({ fromPicture: true, fallback: 'ink' } as const) : { palette: task.colors },
    background: task.background,
    seed: task.seed,
  };
  const cloud = await makeCloud(request);
  if (cloud.words.length === 0) {
    throw new FontInputError(
      'incompatible',
      'nothing placed',
      cloud.missing.length === words.length
        ? '这款字体里没有这些词用到的字，请换一款字体'
        : '形状太小或太细，放不下任何词，请换一个形状或调低阈值',
    );
  }
  const base = { placed: cloud.words.length, dropped: cloud.dropped, missing: cloud.missing };
  if (task.format === 'png') return { ...base, bytes: await cloudPng(request, cloud), mime: 'image/png' };
  const svg = await cloudSvg(request, cloud, task.format === 'svg' ? 'text' : 'outlines');
  return { ...base, bytes: new Uint8Array(Buffer.from(svg)), mime: 'image/svg+xml' };
}
