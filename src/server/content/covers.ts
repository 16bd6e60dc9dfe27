import { createHash } from 'node:crypto';
import { asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { fontFamilies, fonts } from '../db/schema/index.ts';
import {
  acquireFace,
  type DrawingFace,
  describeFace,
  type FaceDescription,
  type FaceSource,
} from '../engine/text/font-registry.ts';
import { env } from '../env.ts';
import { storedFaceSource } from '../fonts/drawing-faces.ts';
import { pickDefaultFace } from '../fonts/faces.ts';
import { log } from '../log.ts';
import type { Storage } from '../storage/index.ts';
import { type CoverKind, coverText, renderCoverImages } from './cover-render.ts';

// Bumped when the drawing changes, so that every cover is drawn again on the next start (the key of a
// cover holds a hash of the version). 2: every character is set in a face that has it.
const RENDER_VERSION = 2;

/** Fonts a kind of item is drawn in when it names none of its own, in order of preference. */
const KIND_FONTS: Record<CoverKind, string[]> = {
  news: ['noto-serif-sc', 'noto-sans-sc'],
  baike: ['ma-shan-zheng', 'zhi-mang-xing', 'liu-jian-mao-cao', 'noto-serif-sc'],
  zixun: ['noto-sans-sc', 'noto-serif-sc'],
  album: ['noto-serif-sc', 'zcool-xiaowei'],
  heji: ['zcool-xiaowei', 'noto-serif-sc'],
  case: ['noto-sans-sc', 'zcool-kuaile'],
  promotion: ['zcool-kuaile', 'noto-sans-sc'],
  ad: ['noto-serif-sc', 'noto-sans-sc'],
};

/** The families a cover of `kind` may be drawn in, first choice first: the item's own, then the kind's. */
export function coverFontCandidates(kind: CoverKind, fonts: readonly string[] = []): string[] {
  return [...new Set([...fonts, ...KIND_FONTS[kind]])];
}

// Where a character the item's font lacks is set: the library's broadest faces, Simplified first,
// then Traditional (Taiwan, Hong Kong) and Japanese; serif after a serif or a brush, sans otherwise.
const SERIF_FALLBACKS = ['noto-serif-sc', 'noto-serif-tc', 'noto-serif-hk', 'noto-serif-jp'];
const SANS_FALLBACKS = ['noto-sans-sc', 'noto-sans-tc', 'noto-sans-hk', 'noto-sans-jp'];
const SERIF_CATEGORIES = new Set(['宋体', '书法', '手写']);
// Library faces are plain TTF files; a bucket's copy is read whole, never expanded.
const MAX_FONT_BYTES = 64 << 20;

/** A family a cover can be drawn in (its default face). */
interface CoverFont {
  gno: string;
  nameZh: string;
  category: string;
  fileKey: string;
  sha256: string;
}

/** The default face of each given family that exists, by family gno. */
async function coverFonts(db: Db, gnos: string[]): Promise<Map<string, CoverFont>> {
  const found = new Map<string, CoverFont>();
  if (gnos.length === 0) return found;
  const rows = await db
    .select({
      gno: fontFamilies.gno,
      nameZh: fontFamilies.nameZh,
      category: fontFamilies.category,
      fileKey: fonts.fileKey,
      sha256: fonts.sha256,
      weight: fonts.weight,
      italic: fonts.italic,
    })
    .from(fonts)
    .innerJoin(fontFamilies, eq(fonts.familyId, fontFamilies.id))
    .where(inArray(fontFamilies.gno, gnos))
    .orderBy(asc(fonts.id));
  for (const gno of gnos) {
    const face = pickDefaultFace(rows.filter((row) => row.gno === gno));
    if (face) found.set(gno, { ...face, category: String(face.category) });
  }
  return found;
}

/** A face a cover is set in. */
interface PlannedFace {
  font: CoverFont;
  source: FaceSource;
  description: FaceDescription;
}

/** The faces a cover needs, best first, and the characters none of the candidates has. */
interface CoverPlan {
  primary: CoverFont | undefined;
  faces: PlannedFace[];
  missing: string[];
}

/**
 * Chooses the faces of a cover: the item's own font (else its kind's), then, for each character it
 * lacks, the first fallback family that has it. Faces are described (coverage read from the font
 * file) but not registered: a cover that is already drawn costs no registration.
 */
async function planCover(db: Db, storage: Storage, request: CoverRequest, siteTitle: string): Promise<CoverPlan> {
  const own = coverFontCandidates(request.kind, request.fonts);
  const available = await coverFonts(db, [...new Set([...own, ...SERIF_FALLBACKS, ...SANS_FALLBACKS])]);
  let primary = own.map((gno) => available.get(gno)).find(Boolean);
  if (!primary) {
    const [any] = await db.select({ gno: fontFamilies.gno }).from(fontFamilies).orderBy(asc(fontFamilies.id)).limit(1);
    if (any) primary = (await coverFonts(db, [any.gno])).get(any.gno);
  }
  if (!primary) return { primary, faces: [], missing: [] };
  const fallbacks = SERIF_CATEGORIES.has(primary.category)
    ? [...SERIF_FALLBACKS, ...SANS_FALLBACKS]
    : [...SANS_FALLBACKS, ...SERIF_FALLBACKS];
  const candidates = [primary, ...[...own, ...fallbacks].map((gno) => available.get(gno))].filter(
    (font, index, all): font is CoverFont => font !== undefined && all.findIndex((f) => f?.gno === font.gno) === index,
  );
  let missing = [
    ...new Set(coverText({ kind: request.kind, title: request.title, fontName: primary.nameZh, siteTitle })),
  ].filter((character) => !/\s/u.test(character));
  const faces: PlannedFace[] = [];
  for (const font of candidates) {
    if (missing.length === 0) break;
    let planned: PlannedFace;
    try {
      const source = await storedFaceSource(
        { key: font.fileKey, faceIndex: 0, maxSfntBytes: MAX_FONT_BYTES, sha256: font.sha256 },
        storage,
      );
      planned = { font, source, description: describeFace(source) };
    } catch (error) {
      log().warn({ err: error, gno: font.gno }, 'cover font could not be read');
      continue;
    }
    const left = missing.filter((character) => !planned.description.has(character.codePointAt(0) ?? 0));
    if (left.length < missing.length || faces.length === 0) faces.push(planned);
    missing = left;
  }
  return { primary, faces, missing };
}
/** What to draw a cover for: the item's own fonts come first, then the kind's defaults. */
export interface CoverRequest {
  kind: CoverKind;
  /** Stable name of the item within its kind; part of the storage key. */
  slug: string;
  title: string;
  /** Family gnos of the item (its own fonts), most fitting first. */
  fonts?: string[];
}

/** The storage key pattern of covers: covers/<kind>/<slug>-<12 hex>.webp, thumbnail beside it. */
export function coverKeyOf(kind: CoverKind, slug: string, hash: string): string {
  return `covers/${kind}/${slug}-${hash}.webp`;
}

/** The key of a cover's 600×315 thumbnail. */
export function thumbKeyOf(coverKey: string): string {
  return coverKey.replace(/\.webp$/, '-thumb.webp');
}

/** The slug a cover key was made for, or undefined for a key of another shape. */
export function slugOfCoverKey(kind: CoverKind, key: string | null | undefined): string | undefined {
  const match = key ? /^covers\/([a-z]+)\/([a-z0-9-]+)-[0-9a-f]{12}\.webp$/.exec(key) : null;
  return match && match[1] === kind ? match[2] : undefined;
}

/**
 * Makes sure an item's cover exists and answers its storage key. The key holds a hash of what is
 * drawn (title, the faces it is set in, drawing version), so an unchanged item costs a few reads and
 * one stat, and a changed title, a new fallback face or new drawing rules get a new file (old keys
 * keep serving cached pages until they expire). Every character is set in a face that has it; one
 * that no library face has is left out and logged, never drawn as a box.
 */
export async function ensureCover(db: Db, storage: Storage, request: CoverRequest): Promise<string> {
  const siteTitle = env().SITE_TITLE;
  const plan = await planCover(db, storage, request, siteTitle);
  const hash = createHash('sha256')
    .update(
      JSON.stringify([
        RENDER_VERSION,
        request.kind,
        request.title,
        plan.faces.map((face) => face.description.id),
        siteTitle,
      ]),
    )
    .digest('hex')
    .slice(0, 12);
  const key = coverKeyOf(request.kind, request.slug, hash);
  if ((await storage.stat(key)) && (await storage.stat(thumbKeyOf(key)))) return key;

  const held: DrawingFace[] = [];
  try {
    for (const face of plan.faces) {
      try {
        held.push(acquireFace(face.source));
      } catch (error) {
        log().warn({ err: error, gno: face.font.gno }, 'cover font could not be loaded');
      }
    }
    const images = await renderCoverImages({
      kind: request.kind,
      title: request.title,
      faces: held,
      fontName: held.length > 0 ? plan.primary?.nameZh : undefined,
      siteTitle,
    });
    if (images.missing.length > 0) {
      log().warn(
        { kind: request.kind, slug: request.slug, missing: images.missing.join('') },
        'cover characters that no library face has were left out',
      );
    }
    await storage.put(thumbKeyOf(key), images.thumb);
    await storage.put(key, images.cover);
  } finally {
    for (const face of held) face.release();
  }
  return key;
}

/** Public addresses of a cover and its thumbnail, or nulls when the item has no cover. */
export function coverUrls(storage: Storage, coverKey: string | null): { cover: string | null; thumb: string | null } {
  if (!coverKey) return { cover: null, thumb: null };
  return { cover: storage.url(coverKey), thumb: storage.url(thumbKeyOf(coverKey)) };
}
