import { and, asc, desc, eq } from 'drizzle-orm';
import { db as configuredDb, type Db } from '../db/client.ts';
import { fontFamilies, fontGroupFonts, fontGroups, fonts } from '../db/schema/index.ts';
import { coverageSets } from '../engine/charsets.ts';
import { notFound } from '../http/envelope.ts';
import { publicPath } from '../storage/index.ts';
import { type ChildFontResource, type FontCoverage, type FontResource, toResources } from './catalogue.ts';

/** A child font as the detail page lists it: its file and what it covers. */
export interface ChildFontDetail extends ChildFontResource {
  glyphCount: number;
  coverage: FontCoverage;
  version: string;
}

/** A neighbour in the library order, for the previous/next links. */
export interface FontNeighbour {
  fontGNo: string;
  familyName: string;
}

/** An album that features the family. */
export interface RelatedAlbum {
  id: number;
  title: string;
  summary: string;
  coverUrl: string | null;
}

/** Everything the font detail page shows. */
export interface FontDetail extends Omit<FontResource, 'childFontResource'> {
  childFontResource: ChildFontDetail[];
  licenseText: string;
  description: string;
  sourcePackage: string | null;
  sourceVersion: string | null;
  /** The size of each coverage set, the denominators of `coverage` (GB2312 has 6763 hanzi …). */
  coverageTotals: FontCoverage;
  /** Sum of the child fonts' file sizes in bytes. */
  totalSize: number;
  albums: RelatedAlbum[];
  previous: FontNeighbour | null;
  next: FontNeighbour | null;
}

/** The published family a gno names: a family's own gno, or the gno of one of its child fonts. */
export async function findPublishedFamily(db: Db, gno: string) {
  const [family] = await db
    .select()
    .from(fontFamilies)
    .where(and(eq(fontFamilies.gno, gno), eq(fontFamilies.published, true)));
  if (family) return family;
  const [child] = await db
    .select({ family: fontFamilies })
    .from(fonts)
    .innerJoin(fontFamilies, eq(fonts.familyId, fontFamilies.id))
    .where(and(eq(fonts.gno, gno), eq(fontFamilies.published, true)));
  return child?.family;
}

/** The published families in the library's default order (most downloaded first), as neighbours. */
async function libraryOrder(db: Db): Promise<Array<FontNeighbour & { id: number }>> {
  return db
    .select({ id: fontFamilies.id, fontGNo: fontFamilies.gno, familyName: fontFamilies.nameZh })
    .from(fontFamilies)
    .where(eq(fontFamilies.published, true))
    .orderBy(desc(fontFamilies.downloads), asc(fontFamilies.category), asc(fontFamilies.script), asc(fontFamilies.id));
}

const neighbour = (row: (FontNeighbour & { id: number }) | undefined): FontNeighbour | null =>
  row ? { fontGNo: row.fontGNo, familyName: row.familyName } : null;

/**
 * A family's detail (GET /font/getFontDetail): its resource item, licence text, description, every
 * child font with size, glyph count and coverage, coverage totals, published albums that feature
 * it and its neighbours in the library. Answers 404 for an unknown or unpublished gno.
 */
export async function getFontDetail(gno: string, database?: Db): Promise<FontDetail> {
  const db = database ?? (await configuredDb());
  const family = await findPublishedFamily(db, gno);
  if (!family) throw notFound('字体不存在或已下架');
  const [resource] = await toResources(db, [family]);
  if (!resource) throw notFound('字体不存在或已下架');
  const rows = await db.select().from(fonts).where(eq(fonts.familyId, family.id));
  const children = resource.childFontResource.map((child): ChildFontDetail => {
    const row = rows.find((font) => font.gno === child.fontGNo);
    return {
      ...child,
      glyphCount: row?.glyphCount ?? 0,
      coverage: {
        gb2312: row?.coverageGb2312 ?? 0,
        tongyong: row?.coverageTongyong ?? 0,
        big5: row?.coverageBig5 ?? 0,
        latin: row?.coverageLatin ?? 0,
      },
      version: row?.version ?? '',
    };
  });
  const related = await db
    .select({ id: fontGroups.id, title: fontGroups.title, summary: fontGroups.summary, coverKey: fontGroups.coverKey })
    .from(fontGroupFonts)
    .innerJoin(fontGroups, and(eq(fontGroupFonts.kind, fontGroups.kind), eq(fontGroupFonts.groupId, fontGroups.id)))
    .where(
      and(eq(fontGroupFonts.familyId, family.id), eq(fontGroups.kind, 'album'), eq(fontGroups.status, 'published')),
    )
    .orderBy(asc(fontGroups.sort), desc(fontGroups.publishedAt), asc(fontGroups.id));
  const order = await libraryOrder(db);
  const at = order.findIndex((row) => row.id === family.id);
  const sets = coverageSets();
  return {
    ...resource,
    childFontResource: children,
    licenseText: family.licenseText,
    description: family.description,
    sourcePackage: family.sourcePackage,
    sourceVersion: family.sourceVersion,
    coverageTotals: {
      gb2312: sets.gb2312.size,
      tongyong: sets.tongyong.size,
      big5: sets.big5.size,
      latin: sets.latin.size,
    },
    totalSize: children.reduce((sum, child) => sum + child.fileSize, 0),
    albums: related.map((album) => ({
      id: album.id,
      title: album.title,
      summary: album.summary,
      coverUrl: album.coverKey ? publicPath(album.coverKey) : null,
    })),
    previous: at > 0 ? neighbour(order[at - 1]) : null,
    next: at >= 0 ? neighbour(order[at + 1]) : null,
  };
}
