import { and, asc, count, desc, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import { db as configuredDb, type Db } from '../db/client.ts';
import { fontFamilies, fonts } from '../db/schema/index.ts';
import { pickDefaultFace } from '../fonts/faces.ts';
import { publicPath } from '../storage/index.ts';

/** A page of records, the shape of every SPEC list answer. */
export interface Page<T> {
  records: T[];
  total: number;
  size: number;
  current: number;
  pages: number;
}

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
}

/** Coverage counts of a font: how many characters of each set it has. */
export interface FontCoverage {
  gb2312: number;
  tongyong: number;
  big5: number;
  latin: number;
}

/** One weight/style of a family (SPEC §3 childFontResource). */
export interface ChildFontResource {
  fontGNo: string;
  familyName: string;
  fontFamily: string;
  ttfPath: string;
  /** Whole-font WOFF2 is not generated yet. */
  woffPath: string | null;
  webFontFamily: string;
  weight: number;
  italic: boolean;
  styleName: string;
  fileSize: number;
}

/** A font family as the font list shows it (SPEC §3 font resource item). */
export interface FontResource {
  fontGNo: string;
  /** The Chinese display name. */
  familyName: string;
  /** The English family name read from the font. */
  fontFamily: string;
  /** The TTF of the face that stands for the family (weight 400 or the nearest). */
  ttfPath: string | null;
  woffPath: string | null;
  /** The CSS family name pages use to preview the font. */
  webFontFamily: string;
  childFontResource: ChildFontResource[];
  category: string;
  script: string;
  license: string;
  commercialFree: boolean;
  glyphCount: number;
  coverage: FontCoverage;
}

/** The CSS family name under which previews load a font, e.g. 'fa-noto-sans-sc'. */
export function webFontFamily(gno: string): string {
  return `fa-${gno}`;
}

/** Escapes LIKE wildcards so that a keyword matches literally. */
function likePattern(keyword: string): string {
  return `%${keyword.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

function filters(query: FontListQuery): SQL | undefined {
  const conditions: SQL[] = [eq(fontFamilies.published, true)];
  if (query.category) conditions.push(eq(fontFamilies.category, query.category));
  if (query.script) conditions.push(eq(fontFamilies.script, query.script));
  if (query.keyword) {
    const pattern = likePattern(query.keyword);
    const match = or(
      ilike(fontFamilies.nameZh, pattern),
      ilike(fontFamilies.nameEn, pattern),
      ilike(fontFamilies.gno, pattern),
    );
    if (match) conditions.push(match);
  }
  return and(...conditions);
}

type FamilyRow = typeof fontFamilies.$inferSelect;
type FontRow = typeof fonts.$inferSelect;

function toResource(family: FamilyRow, children: FontRow[]): FontResource {
  const childResources = children.map(
    (font): ChildFontResource => ({
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
  };
}

/**
 * One page of the published font families matching the filters: most downloaded first, then by
 * category and script (黑体 and 简体 lead), each with its child fonts ordered by weight.
 */
export async function listFontFamilies(query: FontListQuery, database?: Db): Promise<Page<FontResource>> {
  const db = database ?? (await configuredDb());
  const where = filters(query);
  const [counted] = await db.select({ total: count() }).from(fontFamilies).where(where);
  const total = counted?.total ?? 0;
  const families = await db
    .select()
    .from(fontFamilies)
    .where(where)
    .orderBy(desc(fontFamilies.downloads), asc(fontFamilies.category), asc(fontFamilies.script), asc(fontFamilies.id))
    .limit(query.size)
    .offset((query.current - 1) * query.size);

  const ids = families.map((family) => family.id);
  const children =
    ids.length === 0
      ? []
      : await db
          .select()
          .from(fonts)
          .where(inArray(fonts.familyId, ids))
          .orderBy(asc(fonts.weight), asc(fonts.italic), asc(fonts.id));

  return {
    records: families.map((family) =>
      toResource(
        family,
        children.filter((font) => font.familyId === family.id),
      ),
    ),
    total,
    size: query.size,
    current: query.current,
    pages: Math.ceil(total / query.size),
  };
}
