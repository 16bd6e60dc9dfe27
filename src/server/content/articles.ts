import { and, asc, count, desc, eq, gt, ilike, inArray, lt, ne, or, type SQL, sql } from 'drizzle-orm';
import type { ArticleListItem, ArticleTag } from '../../contract/content.ts';
import { beforeDatabaseCloses, db as configuredDb, type Db } from '../db/client.ts';
import { type ArticleKind, articles, tags } from '../db/schema/index.ts';
import { log } from '../log.ts';
import { storage } from '../storage/index.ts';
import { coverUrls } from './covers.ts';
import { sanitizeArticleHtml } from './html.ts';
import { iso, type Neighbour, offsetOf, type Page, type PageRequest, toPage } from './paging.ts';

export type { ArticleListItem, ArticleTag };

/** An article with its body, video, previous/next and related reading. */
export interface ArticleDetail extends ArticleListItem {
  bodyHtml: string;
  videoUrl: string | null;
  updatedAt: string;
  /** The newer neighbour in list order (上一篇) and the older one (下一篇). */
  previous: Neighbour | null;
  next: Neighbour | null;
  related: ArticleListItem[];
}

/** Filters of an article list. */
export interface ArticleListQuery extends PageRequest {
  kind: ArticleKind;
  tagId?: number | undefined;
  keyword?: string | undefined;
}

const listColumns = {
  id: articles.id,
  kind: articles.kind,
  title: articles.title,
  summary: articles.summary,
  coverKey: articles.coverKey,
  author: articles.author,
  source: articles.source,
  tagId: articles.tagId,
  tagName: tags.name,
  publishedAt: articles.publishedAt,
  views: articles.views,
  videoUrl: articles.videoUrl,
};

interface ListRow {
  id: number;
  kind: ArticleKind;
  title: string;
  summary: string;
  coverKey: string | null;
  author: string | null;
  source: string | null;
  tagId: number | null;
  tagName: string | null;
  publishedAt: Date | null;
  views: number;
  videoUrl: string | null;
}

function toListItem(row: ListRow): ArticleListItem {
  const { cover, thumb } = coverUrls(storage(), row.coverKey);
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    summary: row.summary,
    cover,
    thumb,
    author: row.author,
    source: row.source,
    tagId: row.tagId,
    tagName: row.tagName,
    publishedAt: iso(row.publishedAt),
    views: row.views,
    hasVideo: Boolean(row.videoUrl),
  };
}

function publishedOf(kind: ArticleKind): SQL {
  return and(eq(articles.kind, kind), eq(articles.status, 'published')) as SQL;
}

function likePattern(keyword: string): string {
  return `%${keyword.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** One page of the published articles of a kind, newest first, optionally of one tag or matching a keyword. */
export async function listArticles(query: ArticleListQuery, database?: Db): Promise<Page<ArticleListItem>> {
  const db = database ?? (await configuredDb());
  const conditions: SQL[] = [publishedOf(query.kind)];
  if (query.tagId !== undefined) conditions.push(eq(articles.tagId, query.tagId));
  if (query.keyword) {
    const match = or(
      ilike(articles.title, likePattern(query.keyword)),
      ilike(articles.summary, likePattern(query.keyword)),
    );
    if (match) conditions.push(match);
  }
  const where = and(...conditions);
  const [counted] = await db.select({ total: count() }).from(articles).where(where);
  const rows = await db
    .select(listColumns)
    .from(articles)
    .leftJoin(tags, eq(articles.tagId, tags.id))
    .where(where)
    .orderBy(desc(articles.publishedAt), desc(articles.id))
    .limit(query.size)
    .offset(offsetOf(query));
  return toPage(rows.map(toListItem), counted?.total ?? 0, query);
}

async function neighbour(db: Db, kind: ArticleKind, at: Date, id: number, newer: boolean): Promise<Neighbour | null> {
  const after = newer
    ? or(gt(articles.publishedAt, at), and(eq(articles.publishedAt, at), gt(articles.id, id)))
    : or(lt(articles.publishedAt, at), and(eq(articles.publishedAt, at), lt(articles.id, id)));
  const order = newer ? [asc(articles.publishedAt), asc(articles.id)] : [desc(articles.publishedAt), desc(articles.id)];
  const [row] = await db
    .select({ id: articles.id, title: articles.title })
    .from(articles)
    .where(and(publishedOf(kind), after))
    .orderBy(...order)
    .limit(1);
  return row ?? null;
}

/** Up to `limit` other articles of the kind: the same tag first, then the newest. */
async function relatedArticles(db: Db, kind: ArticleKind, id: number, tagId: number | null, limit = 4) {
  const byDate = [desc(articles.publishedAt), desc(articles.id)];
  const order = tagId === null ? byDate : [desc(sql`coalesce(${articles.tagId} = ${tagId}, false)`), ...byDate];
  const rows = await db
    .select(listColumns)
    .from(articles)
    .leftJoin(tags, eq(articles.tagId, tags.id))
    .where(and(publishedOf(kind), ne(articles.id, id)))
    .orderBy(...order)
    .limit(limit);
  return rows.map(toListItem);
}

/**
 * A published article of one of the given kinds with its neighbours and related reading, or
 * undefined. The body is sanitized again on the way out, whatever wrote it.
 */
export async function getArticle(
  id: number,
  kinds: readonly ArticleKind[],
  database?: Db,
): Promise<ArticleDetail | undefined> {
  const db = database ?? (await configuredDb());
  const [row] = await db
    .select({ ...listColumns, bodyHtml: articles.bodyHtml, updatedAt: articles.updatedAt })
    .from(articles)
    .leftJoin(tags, eq(articles.tagId, tags.id))
    .where(and(eq(articles.id, id), eq(articles.status, 'published'), inArray(articles.kind, [...kinds])));
  if (!row) return undefined;
  const at = row.publishedAt ?? new Date(0);
  const [previous, next, related] = await Promise.all([
    neighbour(db, row.kind, at, row.id, true),
    neighbour(db, row.kind, at, row.id, false),
    relatedArticles(db, row.kind, row.id, row.tagId),
  ]);
  return {
    ...toListItem(row),
    bodyHtml: sanitizeArticleHtml(row.bodyHtml),
    videoUrl: row.videoUrl,
    updatedAt: row.updatedAt.toISOString(),
    previous,
    next,
    related,
  };
}

/** Counts a reading of an article (the detail API calls it; cached pages do not). */
// Views are added up in memory and written in one statement per article every few seconds: a
// read answered from the answer cache must not cost a database write.
const pendingViews = new Map<number, number>();
let viewFlush: NodeJS.Timeout | undefined;
const VIEW_FLUSH_MS = 3_000;

/** Counts one view of an article; written to the database within a few seconds. */
export function countArticleView(id: number): void {
  if (!Number.isSafeInteger(id) || id <= 0) return;
  if (pendingViews.size === 0) beforeDatabaseCloses(flushArticleViews);
  pendingViews.set(id, (pendingViews.get(id) ?? 0) + 1);
  viewFlush ??= setTimeout(() => void flushArticleViews(), VIEW_FLUSH_MS).unref();
}

/** Writes the views counted so far (also called on shutdown and by tests). */
export async function flushArticleViews(): Promise<void> {
  clearTimeout(viewFlush);
  viewFlush = undefined;
  const batch = [...pendingViews];
  pendingViews.clear();
  if (batch.length === 0) return;
  try {
    const db = await configuredDb();
    for (const [id, added] of batch) {
      await db
        .update(articles)
        .set({ views: sql`${articles.views} + ${added}` })
        .where(eq(articles.id, id));
    }
  } catch (error) {
    log().warn({ err: error, articles: batch.length }, 'article views could not be written');
  }
}

/** The tags of a kind in their order, with article counts; tags without published articles are left out. */
export async function listArticleTags(kind: ArticleKind, database?: Db): Promise<ArticleTag[]> {
  const db = database ?? (await configuredDb());
  return db
    .select({ id: tags.id, name: tags.name, count: count(articles.id) })
    .from(tags)
    .innerJoin(articles, and(eq(articles.tagId, tags.id), publishedOf(kind)))
    .where(eq(tags.kind, kind))
    .groupBy(tags.id, tags.name, tags.sort)
    .orderBy(asc(tags.sort), asc(tags.id));
}

/** An encyclopedia title under its tag (getCalligraphyTitleByTageId). */
export interface BaikeTitle {
  id: number;
  title: string;
  tagId: number | null;
  tagName: string | null;
}

/** The titles of published encyclopedia entries, of one tag or of all, grouped by tag order then title. */
export async function listBaikeTitles(tagId: number | undefined, database?: Db): Promise<BaikeTitle[]> {
  const db = database ?? (await configuredDb());
  const where = tagId === undefined ? publishedOf('baike') : and(publishedOf('baike'), eq(articles.tagId, tagId));
  return db
    .select({ id: articles.id, title: articles.title, tagId: articles.tagId, tagName: tags.name })
    .from(articles)
    .leftJoin(tags, eq(articles.tagId, tags.id))
    .where(where)
    .orderBy(asc(sql`coalesce(${tags.sort}, 999999)`), asc(articles.publishedAt), asc(articles.id));
}
