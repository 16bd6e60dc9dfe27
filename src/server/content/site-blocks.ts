import { and, asc, count, desc, eq, gte, isNull, lte, or, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { AdItem, PromotionItem } from '../../contract/content.ts';
import { db as configuredDb, type Db } from '../db/client.ts';
import { ads, columns, contributeTemplates, promotions } from '../db/schema/index.ts';
import { storage } from '../storage/index.ts';
import { coverUrls } from './covers.ts';
import { sanitizeArticleHtml } from './html.ts';
import { iso, offsetOf, type Page, type PageRequest, toPage } from './paging.ts';

export type { AdItem, PromotionItem };

/** Rows with an optional start and end are live when now lies between them. */
function liveAt(startsAt: AnyPgColumn, endsAt: AnyPgColumn, now: Date): SQL {
  return and(or(isNull(startsAt), lte(startsAt, now)), or(isNull(endsAt), gte(endsAt, now))) as SQL;
}

/** A promotion with its text. */
export interface PromotionDetail extends PromotionItem {
  bodyHtml: string;
}

function toPromotion(row: typeof promotions.$inferSelect): PromotionItem {
  return {
    id: row.id,
    title: row.title,
    summary: row.summary,
    ...coverUrls(storage(), row.coverKey),
    linkUrl: row.linkUrl,
    startsAt: iso(row.startsAt),
    endsAt: iso(row.endsAt),
  };
}

/** One page of the published promotions running now, highest sort first. */
export async function listPromotions(
  query: PageRequest,
  now = new Date(),
  database?: Db,
): Promise<Page<PromotionItem>> {
  const db = database ?? (await configuredDb());
  const where = and(eq(promotions.status, 'published'), liveAt(promotions.startsAt, promotions.endsAt, now));
  const [counted] = await db.select({ total: count() }).from(promotions).where(where);
  const rows = await db
    .select()
    .from(promotions)
    .where(where)
    .orderBy(desc(promotions.sort), desc(promotions.id))
    .limit(query.size)
    .offset(offsetOf(query));
  return toPage(rows.map(toPromotion), counted?.total ?? 0, query);
}

/** A published promotion (running or not: an old link still shows what it was), or undefined. */
export async function getPromotion(id: number, database?: Db): Promise<PromotionDetail | undefined> {
  const db = database ?? (await configuredDb());
  const [row] = await db
    .select()
    .from(promotions)
    .where(and(eq(promotions.id, id), eq(promotions.status, 'published')));
  return row ? { ...toPromotion(row), bodyHtml: sanitizeArticleHtml(row.bodyHtml) } : undefined;
}

/** A navigation column (web-column). */
export interface ColumnItem {
  id: number;
  type: string;
  name: string;
  path: string;
  sort: number;
}

/** The columns of one type, highest sort first. */
export async function listColumns(type: string, database?: Db): Promise<ColumnItem[]> {
  const db = database ?? (await configuredDb());
  return db.select().from(columns).where(eq(columns.type, type)).orderBy(desc(columns.sort), asc(columns.id));
}

/** The ads running now, of one position or of all, highest sort first. */
export async function listAds(position: string | undefined, now = new Date(), database?: Db): Promise<AdItem[]> {
  const db = database ?? (await configuredDb());
  const live = liveAt(ads.startsAt, ads.endsAt, now);
  const rows = await db
    .select()
    .from(ads)
    .where(position ? and(eq(ads.position, position), live) : live)
    .orderBy(asc(ads.position), desc(ads.sort), asc(ads.id));
  return rows.map((row) => {
    const { cover, thumb } = coverUrls(storage(), row.imageKey);
    return { id: row.id, position: row.position, title: row.title, image: cover, thumb, linkUrl: row.linkUrl };
  });
}

/** A template text for contributors. */
export interface ContributeTemplateItem {
  id: number;
  type: string;
  title: string;
  contentHtml: string;
}

/** The templates of a type (e.g. the submission agreement), oldest first. */
export async function listContributeTemplates(type: string, database?: Db): Promise<ContributeTemplateItem[]> {
  const db = database ?? (await configuredDb());
  const rows = await db
    .select()
    .from(contributeTemplates)
    .where(eq(contributeTemplates.type, type))
    .orderBy(asc(contributeTemplates.id));
  return rows.map((row) => ({ ...row, contentHtml: sanitizeArticleHtml(row.contentHtml) }));
}
