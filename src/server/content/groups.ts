import { and, asc, count, desc, eq, gt, inArray, lt, ne, or, type SQL } from 'drizzle-orm';
import type { FontGroupFont, FontGroupListItem, FontGroupType } from '../../contract/content.ts';
import { FONT_GROUP_TYPES } from '../../contract/content.ts';
import { db as configuredDb, type Db } from '../db/client.ts';
import { fontFamilies, fontGroupFonts, fontGroups } from '../db/schema/index.ts';
import { type FontResource, toResources } from '../fonts/catalogue.ts';
import { storage } from '../storage/index.ts';
import { coverUrls } from './covers.ts';
import { sanitizeArticleHtml } from './html.ts';
import { iso, type Neighbour, offsetOf, type Page, type PageRequest, toPage } from './paging.ts';

export { FONT_GROUP_TYPES, type FontGroupFont, type FontGroupListItem, type FontGroupType };

/** An album or collection with its description, every family, neighbours and related groups. */
export interface FontGroupDetail extends Omit<FontGroupListItem, 'fonts'> {
  descriptionHtml: string;
  fonts: FontResource[];
  previous: Neighbour | null;
  next: Neighbour | null;
  related: FontGroupListItem[];
}

const CARD_FONTS = 4;

type GroupRow = typeof fontGroups.$inferSelect;

/** The published families of the given groups of one kind, in each group's order. */
async function familiesOf(db: Db, type: FontGroupType, ids: number[]) {
  if (ids.length === 0) return [];
  return db
    .select({ groupId: fontGroupFonts.groupId, family: fontFamilies })
    .from(fontGroupFonts)
    .innerJoin(fontFamilies, eq(fontFamilies.id, fontGroupFonts.familyId))
    .where(and(eq(fontGroupFonts.kind, type), inArray(fontGroupFonts.groupId, ids), eq(fontFamilies.published, true)))
    .orderBy(asc(fontGroupFonts.sort), asc(fontFamilies.id));
}

async function toListItems(db: Db, type: FontGroupType, rows: GroupRow[]): Promise<FontGroupListItem[]> {
  const members = await familiesOf(
    db,
    type,
    rows.map((row) => row.id),
  );
  return rows.map((row) => {
    const own = members.filter((member) => member.groupId === row.id);
    return {
      id: row.id,
      type,
      title: row.title,
      summary: row.summary,
      ...coverUrls(storage(), row.coverKey),
      fontCount: own.length,
      fonts: own.slice(0, CARD_FONTS).map(({ family }) => ({ fontGNo: family.gno, familyName: family.nameZh })),
      publishedAt: iso(row.publishedAt),
    };
  });
}

function published(type: FontGroupType): SQL {
  return and(eq(fontGroups.kind, type), eq(fontGroups.status, 'published')) as SQL;
}

/** One page of published albums or collections, highest sort first, then newest. */
export async function listFontGroups(
  query: PageRequest & { type: FontGroupType },
  database?: Db,
): Promise<Page<FontGroupListItem>> {
  const db = database ?? (await configuredDb());
  const group = fontGroups;
  const [counted] = await db.select({ total: count() }).from(group).where(published(query.type));
  const rows = await db
    .select()
    .from(group)
    .where(published(query.type))
    .orderBy(desc(group.sort), desc(group.publishedAt), desc(group.id))
    .limit(query.size)
    .offset(offsetOf(query));
  return toPage(await toListItems(db, query.type, rows), counted?.total ?? 0, query);
}

async function neighbour(db: Db, type: FontGroupType, row: GroupRow, before: boolean): Promise<Neighbour | null> {
  const group = fontGroups;
  // List order is sort desc, id desc: the item before has a higher (sort, id), the one after a lower.
  const side = before
    ? or(gt(group.sort, row.sort), and(eq(group.sort, row.sort), gt(group.id, row.id)))
    : or(lt(group.sort, row.sort), and(eq(group.sort, row.sort), lt(group.id, row.id)));
  const order = before ? [asc(group.sort), asc(group.id)] : [desc(group.sort), desc(group.id)];
  const [found] = await db
    .select({ id: group.id, title: group.title })
    .from(group)
    .where(and(published(type), side))
    .orderBy(...order)
    .limit(1);
  return found ?? null;
}

/** A published album or collection with all its families as font resource items, or undefined. */
export async function getFontGroup(
  type: FontGroupType,
  id: number,
  database?: Db,
): Promise<FontGroupDetail | undefined> {
  const db = database ?? (await configuredDb());
  const group = fontGroups;
  const [row] = await db
    .select()
    .from(group)
    .where(and(eq(group.id, id), published(type)));
  if (!row) return undefined;
  const members = await familiesOf(db, type, [row.id]);
  const relatedRows = await db
    .select()
    .from(group)
    .where(and(published(type), ne(group.id, row.id)))
    .orderBy(desc(group.sort), desc(group.id))
    .limit(3);
  const [item] = await toListItems(db, type, [row]);
  const [fonts, previous, next, related] = await Promise.all([
    toResources(
      db,
      members.map((member) => member.family),
    ),
    neighbour(db, type, row, true),
    neighbour(db, type, row, false),
    toListItems(db, type, relatedRows),
  ]);
  if (!item) return undefined;
  return {
    ...item,
    descriptionHtml: sanitizeArticleHtml(row.descriptionHtml),
    fonts,
    previous,
    next,
    related,
  };
}

/** The published families of a published album or collection (for its zip), or undefined when it does not exist. */
export async function fontGroupFamilies(type: FontGroupType, id: number, database?: Db) {
  const db = database ?? (await configuredDb());
  const group = fontGroups;
  const [row] = await db
    .select({ id: group.id, title: group.title })
    .from(group)
    .where(and(eq(group.id, id), published(type)));
  if (!row) return undefined;
  const members = await familiesOf(db, type, [row.id]);
  return { id: row.id, title: row.title, families: members.map((member) => member.family) };
}
