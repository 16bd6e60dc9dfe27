import { buffer } from 'node:stream/consumers';
import { db as configuredDb, type Db } from '../db/client.ts';
import { coverageSets } from '../engine/charsets.ts';
import { notFound } from '../http/envelope.ts';
import { storage } from '../storage/index.ts';
import { subsetPool } from '../webfont/subset-pool.ts';
import type { Page } from './catalogue.ts';
import { cmapKey, decodeCodePoints, encodeCodePoints } from './cmap-cache.ts';
import { resolveFaces } from './resolve.ts';

/** One cell of the glyph grid. */
export interface Glyph {
  codePoint: number;
  char: string;
  /** 'U+4E00'. */
  unicode: string;
}

/** Which characters the grid lists: all the font maps, or only those of one coverage set. */
export type GlyphSet = 'all' | 'gb2312' | 'tongyong' | 'big5' | 'latin';

/** A page of a font's characters, with the font the grid must be drawn in. */
export interface GlyphPage extends Page<Glyph> {
  /** The child font whose cmap is listed (a family's regular face when a family gno was given). */
  fontGNo: string;
}

const MAX_REMEMBERED = 32;
const remembered = new Map<string, Uint32Array>();
const loading = new Map<string, Promise<Uint32Array>>();

/** Control characters have no glyph to show. */
const printable = (cp: number) => cp >= 0x20 && !(cp >= 0x7f && cp < 0xa0);

/**
 * The sorted code points a font file maps. Reading the cmap of a 10 MB CJK font takes a while, so
 * it runs in the subset workers and is kept in memory and in storage (`cmaps/<sha>.u32`).
 */
export async function fontCodePoints(file: { sha256: string; fileKey: string }): Promise<Uint32Array> {
  const hit = remembered.get(file.sha256);
  if (hit) return hit;
  let pending = loading.get(file.sha256);
  if (!pending) {
    pending = (async () => {
      const key = cmapKey(file.sha256);
      const store = storage();
      const stored = await store.get(key);
      let codePoints: Uint32Array;
      if (stored) {
        codePoints = decodeCodePoints(new Uint8Array(await buffer(stored.body)));
      } else {
        codePoints = await subsetPool().codePoints({ fontId: file.sha256, key: file.fileKey });
        await store.put(key, encodeCodePoints(codePoints), { durable: false });
      }
      if (remembered.size >= MAX_REMEMBERED) remembered.delete(remembered.keys().next().value as string);
      remembered.set(file.sha256, codePoints);
      return codePoints;
    })().finally(() => loading.delete(file.sha256));
    loading.set(file.sha256, pending);
  }
  return pending;
}

/** The child font a gno names: itself, or the regular face of the family it names. */
async function resolveFont(db: Db, gno: string) {
  return (await resolveFaces(db, [gno])).get(gno)?.face;
}

/** Whether the sorted `codePoints` hold `codePoint` (binary search). */
function mapsCodePoint(codePoints: Uint32Array, codePoint: number): boolean {
  let low = 0;
  let high = codePoints.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const value = codePoints[middle] ?? 0;
    if (value === codePoint) return true;
    if (value < codePoint) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

/**
 * One page of the characters a font maps (GET /font/glyphs): all of them in code point order, or
 * only those of a coverage set in that set's own order (通用规范汉字表 by its numbering, GB 2312
 * and Big5 by their code tables), as a designer checks a face against the printed table. Answers
 * 404 for an unknown gno.
 */
export async function glyphPage(
  query: { gno: string; current: number; size: number; set?: GlyphSet | undefined },
  database?: Db,
): Promise<GlyphPage> {
  const db = database ?? (await configuredDb());
  const font = await resolveFont(db, query.gno);
  if (!font) throw notFound('字体不存在或已下架');
  const all = await fontCodePoints(font);
  const set = query.set && query.set !== 'all' ? coverageSets()[query.set] : undefined;
  const listed = set
    ? Uint32Array.from([...set].filter((cp) => printable(cp) && mapsCodePoint(all, cp)))
    : all.filter(printable);
  const start = (query.current - 1) * query.size;
  const records = Array.from(listed.subarray(start, start + query.size), (codePoint) => ({
    codePoint,
    char: String.fromCodePoint(codePoint),
    unicode: `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`,
  }));
  return {
    fontGNo: font.gno,
    records,
    total: listed.length,
    size: query.size,
    current: query.current,
    pages: Math.ceil(listed.length / query.size),
  };
}

/** Forgets the remembered cmaps (tests). */
export function clearGlyphCache(): void {
  remembered.clear();
}
