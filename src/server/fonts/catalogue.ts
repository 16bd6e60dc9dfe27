import { and, asc, count, desc, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { Page } from '../../contract/envelope.ts';
import type { ChildFontResource, FontCoverage, FontResource } from '../../contract/fonts.ts';
import { db as configuredDb, type Db } from '../db/client.ts';
import { fontDicts, fontFamilies, fonts } from '../db/schema/index.ts';
import { publicPath } from '../storage/index.ts';
import { pickDefaultFace } from './faces.ts';

export type { ChildFontResource, FontCoverage, FontResource, Page };

/** Filters and paging of the font list. */
export interface FontListQuery {
  current: number;
  size: number;
  /** Matched against the Chinese and English names and the gno, ignoring case. */
  keyword?: string | undefined;
  /** A dict number of the 'category' dictionary. */
  category?: string | undefined;
  /** A dict number of the 'script' dictionary. */
  script?: string | undefined;
  /** A dict number of the 'license' dictionary (an SPDX id such as 'OFL-1.1'). */
  license?: string | undefined;
  /** 'multi': families with more than one weight/style; 'single': with exactly one. */
  weights?: 'multi' | 'single' | undefined;
  /** true: only families free for commercial use; false: only the others. */
  commercialFree?: boolean | undefined;
  /** Most downloaded first (default), newest first, or by name in pinyin order. */
  sort?: FontListSort | undefined;
  /** Only these family gnos (the families a 「包含这些字」 search found). */
  only?: readonly string[] | undefined;
  /** List `only` in its own order (fewest missing characters first) instead of `sort`. */
  inOnlyOrder?: boolean | undefined;
}

/** The orders the font list offers. */
export type FontListSort = 'downloads' | 'newest' | 'name';

/** The CSS family name under which previews load a font, e.g. 'fa-noto-sans-sc'. */
export function webFontFamily(gno: string): string {
  return `fa-${gno}`;
}

/** Escapes LIKE wildcards so that a keyword matches literally. */
function likePattern(keyword: string): string {
  return `%${keyword.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** Category dict numbers whose label shares a word with the keyword ('黑体' → 黑体; '手写体' → 手写). */
async function categoriesMatching(db: Db, term: string): Promise<string[]> {
  const entries = await db
    .select({ dictNumber: fontDicts.dictNumber, label: fontDicts.label })
    .from(fontDicts)
    .where(eq(fontDicts.dictKey, 'category'));
  return entries.filter((entry) => term.includes(entry.label) || entry.label.includes(term)).map((e) => e.dictNumber);
}

/**
 * The WHERE clause of the list. A keyword is split at spaces and every word must match the Chinese
 * or English name, the gno, the foundry or designer, or name the family's category, so '黑体' finds
 * 思源黑体 and every other 黑体 family, and '思源 宋' narrows to 思源宋体.
 */
async function filters(db: Db, query: FontListQuery): Promise<SQL | undefined> {
  const conditions: SQL[] = [eq(fontFamilies.published, true)];
  if (query.category) conditions.push(eq(fontFamilies.category, query.category));
  if (query.script) conditions.push(eq(fontFamilies.script, query.script));
  if (query.license) conditions.push(eq(fontFamilies.license, query.license));
  if (query.commercialFree !== undefined) conditions.push(eq(fontFamilies.commercialFree, query.commercialFree));
  if (query.only) conditions.push(query.only.length > 0 ? inArray(fontFamilies.gno, [...query.only]) : sql`false`);
  if (query.weights) {
    const faces = sql`(select count(*) from ${fonts} where ${fonts.familyId} = ${fontFamilies.id})`;
    conditions.push(query.weights === 'multi' ? sql`${faces} > 1` : sql`${faces} = 1`);
  }
  for (const term of (query.keyword ?? '').split(/\s+/).filter(Boolean)) {
    const pattern = likePattern(term);
    const categories = await categoriesMatching(db, term);
    const match = or(
      ilike(fontFamilies.nameZh, pattern),
      ilike(fontFamilies.nameEn, pattern),
      ilike(fontFamilies.gno, pattern),
      ilike(fontFamilies.foundry, pattern),
      ilike(fontFamilies.designer, pattern),
      ...(categories.length > 0 ? [inArray(fontFamilies.category, categories)] : []),
    );
    if (match) conditions.push(match);
  }
  return and(...conditions);
}

/** A font_families row. */
export type FamilyRow = typeof fontFamilies.$inferSelect;
/** A fonts row (one child font). */
export type FontRow = typeof fonts.$inferSelect;

function toResource(family: FamilyRow, children: FontRow[]): FontResource {
  const childResources = children.map(
    (font): ChildFontResource => ({
      id: font.id,
      fontGNo: font.gno,
      familyName: family.nameZh,
      fontFamily: family.nameEn,
      ttfPath: publicPath(font.fileKey),
      woffPath: null,
      webFontFamily: webFontFamily(font.gno),
      weight: font.weight,
      italic: font.italic,
      styleName: font.styleName,
      fileSize: font.fileSize,
    }),
  );
  const main = pickDefaultFace(childResources);
  return {
    fontGNo: family.gno,
    familyName: family.nameZh,
    fontFamily: family.nameEn,
    ttfPath: main?.ttfPath ?? null,
    woffPath: null,
    webFontFamily: webFontFamily(family.gno),
    childFontResource: childResources,
    category: family.category,
    script: family.script,
    license: family.license,
    commercialFree: family.commercialFree,
    glyphCount: family.glyphCount,
    coverage: {
      gb2312: family.coverageGb2312,
      tongyong: family.coverageTongyong,
      big5: family.coverageBig5,
      latin: family.coverageLatin,
    },
    designer: family.designer,
    foundry: family.foundry,
    downloads: family.downloads,
    createdAt: family.createdAt.toISOString(),
  };
}

/** The child fonts of these families, by weight, upright before italic. */
export async function childFontsOf(db: Db, familyIds: number[]): Promise<FontRow[]> {
  if (familyIds.length === 0) return [];
  return db
    .select()
    .from(fonts)
    .where(inArray(fonts.familyId, familyIds))
    .orderBy(asc(fonts.weight), asc(fonts.italic), asc(fonts.id));
}

/** Families with their child fonts as font resource items, in the order of `families`. */
export async function toResources(db: Db, families: FamilyRow[]): Promise<FontResource[]> {
  const children = await childFontsOf(
    db,
    families.map((family) => family.id),
  );
  return families.map((family) =>
    toResource(
      family,
      children.filter((font) => font.familyId === family.id),
    ),
  );
}

const pinyin = new Intl.Collator('zh-CN', { numeric: true });

/** One page of family ids in pinyin order of their Chinese names (the library is small enough to sort here). */
async function idsByName(db: Db, where: SQL | undefined, query: FontListQuery): Promise<number[]> {
  const all = await db.select({ id: fontFamilies.id, name: fontFamilies.nameZh }).from(fontFamilies).where(where);
  all.sort((a, b) => pinyin.compare(a.name, b.name) || a.id - b.id);
  const start = (query.current - 1) * query.size;
  return all.slice(start, start + query.size).map((row) => row.id);
}

/** One page of family ids in the order `only` names them. */
async function idsInGivenOrder(db: Db, where: SQL | undefined, query: FontListQuery): Promise<number[]> {
  const position = new Map((query.only ?? []).map((gno, i) => [gno, i]));
  const all = await db.select({ id: fontFamilies.id, gno: fontFamilies.gno }).from(fontFamilies).where(where);
  all.sort((a, b) => (position.get(a.gno) ?? 0) - (position.get(b.gno) ?? 0));
  const start = (query.current - 1) * query.size;
  return all.slice(start, start + query.size).map((row) => row.id);
}

/**
 * One page of the published font families matching the filters, each with its child fonts ordered
 * by weight. The default order is most downloaded first, then by category and script (黑体 and 简体
 * lead); 'newest' puts the latest additions first; 'name' sorts the Chinese names in pinyin order.
 */
export async function listFontFamilies(query: FontListQuery, database?: Db): Promise<Page<FontResource>> {
  const db = database ?? (await configuredDb());
  const where = await filters(db, query);
  const [counted] = await db.select({ total: count() }).from(fontFamilies).where(where);
  const total = counted?.total ?? 0;
  let families: FamilyRow[];
  if (query.sort === 'name' || (query.only && query.inOnlyOrder)) {
    const ids =
      query.only && query.inOnlyOrder ? await idsInGivenOrder(db, where, query) : await idsByName(db, where, query);
    const rows = ids.length === 0 ? [] : await db.select().from(fontFamilies).where(inArray(fontFamilies.id, ids));
    families = ids.flatMap((id) => rows.filter((row) => row.id === id));
  } else {
    const order =
      query.sort === 'newest'
        ? [desc(fontFamilies.createdAt), desc(fontFamilies.id)]
        : [desc(fontFamilies.downloads), asc(fontFamilies.category), asc(fontFamilies.script), asc(fontFamilies.id)];
    families = await db
      .select()
      .from(fontFamilies)
      .where(where)
      .orderBy(...order)
      .limit(query.size)
      .offset((query.current - 1) * query.size);
  }
  return {
    records: await toResources(db, families),
    total,
    size: query.size,
    current: query.current,
    pages: Math.ceil(total / query.size),
  };
}
