import { createHash } from 'node:crypto';
import { asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { fontFamilies, fonts } from '../db/schema/index.ts';
import { env } from '../env.ts';
import { pickDefaultFace } from '../fonts/faces.ts';
import { log } from '../log.ts';
import { loadCanvas } from '../native.ts';
import type { Storage } from '../storage/index.ts';
import { type CoverKind, renderCoverImages } from './cover-render.ts';

// Bumped when the drawing changes, so that every cover is drawn again on the next seed.
const RENDER_VERSION = 1;

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

/** A family a cover can be drawn in. */
interface CoverFont {
  gno: string;
  nameZh: string;
  fileKey: string;
  sha256: string;
}

const registered = new Set<string>();

/** The default face of each given family that exists, by family gno. */
async function coverFonts(db: Db, gnos: string[]): Promise<Map<string, CoverFont>> {
  const found = new Map<string, CoverFont>();
  if (gnos.length === 0) return found;
  const rows = await db
    .select({
      gno: fontFamilies.gno,
      nameZh: fontFamilies.nameZh,
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
    if (face) found.set(gno, { gno, nameZh: face.nameZh, fileKey: face.fileKey, sha256: face.sha256 });
  }
  return found;
}

/** Reads a stored font and registers it with Skia under an alias, once per process. */
async function registerFont(storage: Storage, font: CoverFont): Promise<string | undefined> {
  const alias = `cover-${font.gno}`;
  if (registered.has(alias)) return alias;
  const object = await storage.get(font.fileKey);
  if (!object) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of object.body) chunks.push(chunk as Buffer);
  const key = loadCanvas().GlobalFonts.register(Buffer.concat(chunks), alias);
  if (!key) return undefined;
  registered.add(alias);
  return alias;
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
 * drawn (title, font file, drawing version), so an unchanged item costs one stat and a changed
 * title gets a new file (old keys keep serving cached pages until they expire). Without any library
 * font the cover is still drawn, in the default font.
 */
export async function ensureCover(db: Db, storage: Storage, request: CoverRequest): Promise<string> {
  const candidates = coverFontCandidates(request.kind, request.fonts);
  const available = await coverFonts(db, candidates);
  let font = candidates.map((gno) => available.get(gno)).find(Boolean);
  if (!font) {
    const [any] = await db.select({ gno: fontFamilies.gno }).from(fontFamilies).orderBy(asc(fontFamilies.id)).limit(1);
    if (any) font = (await coverFonts(db, [any.gno])).get(any.gno);
  }
  const siteTitle = env().SITE_TITLE;
  const hash = createHash('sha256')
    .update(JSON.stringify([RENDER_VERSION, request.kind, request.title, font?.sha256 ?? '', siteTitle]))
    .digest('hex')
    .slice(0, 12);
  const key = coverKeyOf(request.kind, request.slug, hash);
  if ((await storage.stat(key)) && (await storage.stat(thumbKeyOf(key)))) return key;

  let alias: string | undefined;
  if (font) {
    alias = await registerFont(storage, font).catch((error: unknown) => {
      log().warn({ err: error, gno: font?.gno }, 'cover font could not be loaded');
      return undefined;
    });
  }
  const images = await renderCoverImages({
    kind: request.kind,
    title: request.title,
    fontAlias: alias,
    fontName: alias ? font?.nameZh : undefined,
    siteTitle,
  });
  await storage.put(thumbKeyOf(key), images.thumb);
  await storage.put(key, images.cover);
  return key;
}

/** Public addresses of a cover and its thumbnail, or nulls when the item has no cover. */
export function coverUrls(storage: Storage, coverKey: string | null): { cover: string | null; thumb: string | null } {
  if (!coverKey) return { cover: null, thumb: null };
  return { cover: storage.url(coverKey), thumb: storage.url(thumbKeyOf(coverKey)) };
}
