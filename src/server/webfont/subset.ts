import { asc, eq } from 'drizzle-orm';
import { db } from '../db/client.ts';
import { fontFamilies } from '../db/schema/index.ts';
import { resolveFaces } from '../fonts/resolve.ts';
import { badRequest } from '../http/envelope.ts';
import { storage } from '../storage/index.ts';
import { forgetSubsetAnswers, SUBSET_MEMORY_MS } from './answers.ts';
import { forgetPreviews, mappedCodePoints, PREVIEW_QUALITY, previewOf } from './previews.ts';
import { closeSubsetWorkers, subsetPool } from './subset-pool.ts';

/** Most fonts one subset request may name (a library page shows 24 previews). */
export const MAX_SUBSET_ITEMS = 60;
/** Most distinct characters one item may ask for; whole character sets go through the CSS service. */
export const MAX_SUBSET_CHARS = 1000;

/** One item of a subset request (SPEC §3): a font's gno and the text to keep. */
export interface SubsetItem {
  gno: string;
  text: string;
}

/** One item of the answer (SPEC §3), and the asked-for characters the font does not have. */
export interface SubsetResult {
  gno: string;
  familyName: string;
  woffPath: string;
  ttfPath: string;
  /** Characters of the text the font lacks: a preview marks them instead of drawing another font's. */
  missing: string;
  /** The WOFF2 itself (base64), when the request asked for it to be embedded. */
  woff2?: string;
}

interface FontFile {
  gno: string;
  familyName: string;
  fileKey: string;
  sha256: string;
}

const fontCache = new Map<string, { file: FontFile; at: number }>();
/** The distinct code points of a text, sorted, without control characters. */
export function codePointsOf(text: string): number[] {
  const set = new Set<number>();
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp >= 0x20 && !(cp >= 0x7f && cp < 0xa0)) set.add(cp);
  }
  return [...set].sort((a, b) => a - b);
}

/**
 * Finds the files behind gnos: a child font's gno names that file; a family's gno names its
 * regular weight (400, else the nearest). Cached for a minute, since fonts rarely change.
 */
async function resolveFonts(gnos: string[]): Promise<Map<string, FontFile>> {
  const found = new Map<string, FontFile>();
  const now = Date.now();
  const missing = gnos.filter((gno) => {
    const hit = fontCache.get(gno);
    if (hit && now - hit.at < SUBSET_MEMORY_MS) found.set(gno, hit.file);
    return !found.has(gno);
  });
  if (missing.length === 0) return found;

  for (const [gno, { face, family }] of await resolveFaces(await db(), missing)) {
    found.set(gno, { gno, familyName: family.nameZh, fileKey: face.fileKey, sha256: face.sha256 });
  }
  for (const [gno, file] of found) fontCache.set(gno, { file, at: now });
  return found;
}

/** How an answer hands over the fonts: by path only, or with the WOFF2 bytes inside it. */
export interface SubsetAnswerOptions {
  /** Put each WOFF2 into the answer (base64), so the page needs no second request for it. */
  embed?: boolean;
}

async function answerItem(file: FontFile, codePoints: number[], embed: boolean): Promise<SubsetResult> {
  const preview = await previewOf(file, codePoints);
  const store = storage();
  const item: SubsetResult = {
    gno: file.gno,
    familyName: file.familyName,
    woffPath: store.url(`${preview.key}.woff2`),
    ttfPath: store.url(`${preview.key}.ttf`),
    missing: preview.missing,
  };
  if (embed) {
    const { buffer: bytes, byteOffset, byteLength } = preview.woff2;
    item.woff2 = Buffer.from(bytes, byteOffset, byteLength).toString('base64');
  } else if (!(await preview.stored)) {
    // The paths are fetched next, maybe from another node: they must name files that exist.
    throw new Error(`preview subset ${preview.key} could not be stored`);
  }
  return item;
}

/**
 * Subsets each named font to its text (SPEC §3 subset service). Results are cached by font file
 * and code points, in memory and in storage; identical requests running at the same time share
 * one subsetting. Previews run in workers of their own (subset-pool.ts, the preview lane).
 */
export async function subsetFonts(items: SubsetItem[], options: SubsetAnswerOptions = {}): Promise<SubsetResult[]> {
  if (items.length === 0) throw badRequest('请至少选择一款字体');
  if (items.length > MAX_SUBSET_ITEMS) throw badRequest(`一次最多预览 ${MAX_SUBSET_ITEMS} 款字体`);
  const wanted = items.map((item) => ({ gno: item.gno, codePoints: codePointsOf(item.text) }));
  for (const { gno, codePoints } of wanted) {
    if (codePoints.length === 0) throw badRequest('预览文字不能为空');
    if (codePoints.length > MAX_SUBSET_CHARS) {
      throw badRequest(`预览文字最多 ${MAX_SUBSET_CHARS} 个不同的字符，整套字符请使用网页字体服务（${gno}）`);
    }
  }
  const files = await resolveFonts([...new Set(wanted.map((item) => item.gno))]);
  for (const { gno } of wanted) {
    if (!files.has(gno)) throw badRequest(`字体不存在：${gno}`);
  }
  return Promise.all(
    wanted.map(({ gno, codePoints }) => answerItem(files.get(gno) as FontFile, codePoints, options.embed === true)),
  );
}

/** The faces a document is set in, and which of them sets each character. */
export interface DocumentFaces {
  /** TrueType subsets, best first; each holds only the characters it sets. */
  faces: Array<{ gno: string; familyName: string; ttf: Uint8Array }>;
  /** The face (index into `faces`) that sets each code point of the text. */
  faceOf: Map<number, number>;
  /** Characters of the text no face in the library has. */
  missing: number[];
}

/**
 * Subsets of library faces for a document that embeds its fonts (the signed agreement's PDF): each
 * character is set in the first face of `preferences` (gnos, best first) that has it, then in any
 * other published family that has it, so a rare character in a name is drawn by a face that has
 * it rather than as an empty box; what no face has is answered as missing. Not cached: each
 * document is made once and kept.
 */
export async function documentFaces(preferences: readonly string[], text: string): Promise<DocumentFaces> {
  const remaining = new Set(codePointsOf(text));
  const result: DocumentFaces = { faces: [], faceOf: new Map(), missing: [] };
  const tryFaces = async (gnos: readonly string[]) => {
    const files = await resolveFonts([...gnos]);
    for (const gno of gnos) {
      const file = files.get(gno);
      if (!file || remaining.size === 0) continue;
      const { ttf } = await subsetPool().run({
        fontId: file.sha256,
        key: file.fileKey,
        codePoints: [...remaining].sort((a, b) => a - b),
        quality: PREVIEW_QUALITY,
      });
      const mapped = [...mappedCodePoints(ttf)].filter((cp) => remaining.has(cp));
      if (mapped.length === 0) continue;
      const index = result.faces.push({ gno, familyName: file.familyName, ttf }) - 1;
      for (const cp of mapped) {
        result.faceOf.set(cp, index);
        remaining.delete(cp);
      }
    }
  };
  await tryFaces(preferences);
  if (remaining.size > 0) {
    const others = await (await db())
      .select({ gno: fontFamilies.gno })
      .from(fontFamilies)
      .where(eq(fontFamilies.published, true))
      .orderBy(asc(fontFamilies.id));
    await tryFaces(others.map((family) => family.gno).filter((gno) => !preferences.includes(gno)));
  }
  // In the order the text has them, as the reader will look for them.
  result.missing = [...new Set(Array.from(text, (ch) => ch.codePointAt(0) ?? 0))].filter((cp) => remaining.has(cp));
  return result;
}

/** Stops the subset workers (tests and shutdown). */
export async function closeSubsetPool(): Promise<void> {
  await closeSubsetWorkers();
  forgetPreviews();
  forgetSubsetAnswers();
  fontCache.clear();
}
