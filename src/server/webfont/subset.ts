import { createHash } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import { asc, eq } from 'drizzle-orm';
import { db } from '../db/client.ts';
import { fontFamilies } from '../db/schema/index.ts';
import { readSfnt } from '../engine/sfnt.ts';
import { cmapOf } from '../engine/sfnt-info.ts';
import { env } from '../env.ts';
import { resolveFaces } from '../fonts/resolve.ts';
import { badRequest } from '../http/envelope.ts';
import { storage } from '../storage/index.ts';
import { SubsetPool } from './subset-pool.ts';

/** Most fonts one subset request may name (a library page shows 24 previews). */
export const MAX_SUBSET_ITEMS = 60;
/** Most distinct characters one item may ask for; whole character sets go through the CSS service. */
export const MAX_SUBSET_CHARS = 1000;
/** Brotli quality of on-the-fly WOFF2: about 1 ms for a preview, 5–25 % larger than quality 11. */
const PREVIEW_QUALITY = 5;

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
}

interface FontFile {
  gno: string;
  familyName: string;
  fileKey: string;
  sha256: string;
}

const fontCache = new Map<string, { file: FontFile; at: number }>();
const FONT_CACHE_MS = 60_000;
const results = new Map<string, SubsetResult>();
const MAX_RESULTS = 20_000;
const inFlight = new Map<string, Promise<SubsetResult>>();
let pool: SubsetPool | undefined;
const stats = { subsetted: 0, memoryHits: 0, storageHits: 0 };

/** Counters since start: fonts subsetted, answers from memory, answers from storage. */
export function subsetStats(): Readonly<typeof stats> {
  return { ...stats };
}

/** The shared worker pool (also lists fonts' code points for the glyph grid). */
export function subsetPool(): SubsetPool {
  pool ??= new SubsetPool(env().SUBSET_WORKERS);
  return pool;
}

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
    if (hit && now - hit.at < FONT_CACHE_MS) found.set(gno, hit.file);
    return !found.has(gno);
  });
  if (missing.length === 0) return found;

  for (const [gno, { face, family }] of await resolveFaces(await db(), missing)) {
    found.set(gno, { gno, familyName: family.nameZh, fileKey: face.fileKey, sha256: face.sha256 });
  }
  for (const [gno, file] of found) fontCache.set(gno, { file, at: now });
  return found;
}

async function subsetOne(file: FontFile, codePoints: number[]): Promise<SubsetResult> {
  const digest = createHash('sha256').update(file.sha256).update(Uint32Array.from(codePoints)).digest('hex');
  const key = `subsets/${file.sha256.slice(0, 16)}/${digest.slice(0, 32)}`;
  const result = (missing: string): SubsetResult => ({
    gno: file.gno,
    familyName: file.familyName,
    woffPath: store.url(`${key}.woff2`),
    ttfPath: store.url(`${key}.ttf`),
    missing,
  });
  // The subset maps exactly the asked-for characters the font has; the others are missing.
  const missingOf = (ttf: Uint8Array) => {
    const mapped = mappedCodePoints(ttf);
    return String.fromCodePoint(...codePoints.filter((cp) => !mapped.has(cp) && cp !== 0x20 && cp !== 0x3000));
  };
  const store = storage();

  const remembered = results.get(key);
  if (remembered) {
    stats.memoryHits++;
    return { ...remembered, gno: file.gno };
  }
  const running = inFlight.get(key);
  if (running) return { ...(await running), gno: file.gno };

  const work = (async () => {
    const stored = await Promise.all([store.stat(`${key}.ttf`), store.stat(`${key}.woff2`)]);
    let missing: string;
    if (stored.every(Boolean)) {
      stats.storageHits++;
      const object = await store.get(`${key}.ttf`);
      missing = object ? missingOf(object.bytes ?? new Uint8Array(await buffer(object.body))) : '';
    } else {
      stats.subsetted++;
      const output = await subsetPool().run({
        fontId: file.sha256,
        key: file.fileKey,
        codePoints,
        quality: PREVIEW_QUALITY,
      });
      // Both files are written before the answer names them, at once; a storage hit needs both.
      // Subsets can be made again, so they skip the flush to disk that source files get, and the
      // browser fetches the WOFF2 next, so its bytes stay in memory for a while.
      missing = missingOf(output.ttf);
      await Promise.all([
        store.put(`${key}.ttf`, output.ttf, { durable: false }),
        store.put(`${key}.woff2`, output.woff2, { durable: false, hot: true }),
      ]);
    }
    const made = result(missing);
    if (results.size >= MAX_RESULTS) results.delete(results.keys().next().value as string);
    results.set(key, made);
    return made;
  })().finally(() => inFlight.delete(key));
  inFlight.set(key, work);
  return work;
}

/**
 * Subsets each named font to its text (SPEC §3 subset service). Results are cached by font file
 * and code points, in memory and in storage; identical requests running at the same time share
 * one subsetting.
 */
export async function subsetFonts(items: SubsetItem[]): Promise<SubsetResult[]> {
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
  return Promise.all(wanted.map(({ gno, codePoints }) => subsetOne(files.get(gno) as FontFile, codePoints)));
}

/** The code points a subset maps; a subset of none of the font's characters has no cmap subtable at all. */
function mappedCodePoints(ttf: Uint8Array): ReadonlySet<number> {
  try {
    return new Set(cmapOf(readSfnt(ttf)).keys());
  } catch {
    return new Set();
  }
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
  await pool?.close();
  pool = undefined;
  results.clear();
  fontCache.clear();
}
