import { and, eq, inArray } from 'drizzle-orm';
import { db as configuredDb, type Db } from '../../db/client.ts';
import {
  type ArticleKind,
  articles,
  cases,
  fontFamilies,
  fontGroupFonts,
  fontGroups,
  type PublicationStatus,
} from '../../db/schema/index.ts';
import { ensureArticleTag } from '../../db/seed/content-items.ts';
import { badRequest, notFound } from '../../http/envelope.ts';
import { storage } from '../../storage/index.ts';
import { type ContentSection, contentChanged } from '../changes.ts';
import { type CoverRequest, ensureCover, slugOfCoverKey } from '../covers.ts';
import { renderMarkdown } from '../html.ts';

// Editors write Markdown (raw HTML blocks allowed); what is stored is the sanitized HTML, so what
// they open again for editing is that HTML, which Markdown passes through unchanged.

/** The fields an editor sets on an article. */
export interface ArticleInput {
  kind: ArticleKind;
  title: string;
  summary: string;
  /** Markdown or HTML; stored sanitized. */
  body: string;
  author?: string | undefined;
  source?: string | undefined;
  /** The grouping tag's name (baike: 楷书 …; news and zixun: their category); a new name makes a new tag. */
  tag?: string | undefined;
  videoUrl?: string | undefined;
}

/** The fields an editor sets on an album. */
export interface AlbumInput {
  title: string;
  summary: string;
  body: string;
  /** Family gnos in display order; unknown ones are refused. */
  fonts: string[];
}

/** The fields an editor sets on a case. */
export interface CaseInput {
  title: string;
  summary: string;
  body: string;
  client?: string | undefined;
  /** The family gno the case shows, if any. */
  font?: string | undefined;
}

function checkVideo(url: string | undefined): string | null {
  if (!url) return null;
  if (!/^(https?:\/\/|\/files\/)[^\s"'<>]+$/i.test(url))
    throw badRequest('视频地址必须以 http://、https:// 或 /files/ 开头');
  return url;
}

async function familyIdsOf(db: Db, gnos: string[]): Promise<number[]> {
  if (gnos.length === 0) return [];
  const rows = await db
    .select({ id: fontFamilies.id, gno: fontFamilies.gno })
    .from(fontFamilies)
    .where(inArray(fontFamilies.gno, gnos));
  const missing = gnos.filter((gno) => !rows.some((row) => row.gno === gno));
  if (missing.length > 0) throw badRequest(`字体库里没有这些字体：${missing.join('、')}`);
  return gnos.map((gno) => rows.find((row) => row.gno === gno)?.id ?? 0);
}

/** A cover slug that stays with the item: the one of its current cover, else one made from its id. */
function slugFor(kind: Parameters<typeof slugOfCoverKey>[0], coverKey: string | null, id: number): string {
  return slugOfCoverKey(kind, coverKey) ?? `item-${id}`;
}

/**
 * Makes a saved change public: the pages showing the item are purged at once, so readers see the
 * new text on their next request; then the cover is drawn again if the title changed, and the
 * pages are purged once more to show it.
 */
async function publishChange(
  db: Db,
  section: ContentSection,
  currentCover: string | null,
  cover: CoverRequest,
  storeCover: (coverKey: string) => Promise<void>,
): Promise<void> {
  await contentChanged(section);
  const coverKey = await ensureCover(db, storage(), cover);
  if (coverKey === currentCover) return;
  await storeCover(coverKey);
  await contentChanged(section);
}

/** Creates an article as a draft, or updates one (keeping its status), and purges the pages that show it. */
export async function saveArticle(id: number | undefined, input: ArticleInput, database?: Db): Promise<number> {
  const db = database ?? (await configuredDb());
  const tagId = input.tag ? await ensureArticleTag(db, input.kind, input.tag) : null;
  const values = {
    kind: input.kind,
    title: input.title,
    summary: input.summary,
    bodyHtml: renderMarkdown(input.body),
    author: input.author || null,
    source: input.source || null,
    tagId,
    videoUrl: checkVideo(input.videoUrl),
    updatedAt: new Date(),
  };
  let row: { id: number; coverKey: string | null; kind: ArticleKind } | undefined;
  if (id === undefined) {
    [row] = await db
      .insert(articles)
      .values({ ...values, status: 'draft' })
      .returning({ id: articles.id, coverKey: articles.coverKey, kind: articles.kind });
  } else {
    const [before] = await db.select({ kind: articles.kind }).from(articles).where(eq(articles.id, id));
    if (!before) throw notFound('文章不存在');
    [row] = await db
      .update(articles)
      .set(values)
      .where(eq(articles.id, id))
      .returning({ id: articles.id, coverKey: articles.coverKey, kind: articles.kind });
    // Moving an article to another kind changes its address: both sections' pages go.
    if (before.kind !== input.kind) await contentChanged(before.kind);
  }
  if (!row) throw new Error('article was not saved');
  const saved = row;
  await publishChange(
    db,
    row.kind,
    saved.coverKey,
    { kind: saved.kind, slug: slugFor(saved.kind, saved.coverKey, saved.id), title: input.title },
    async (coverKey) => void (await db.update(articles).set({ coverKey }).where(eq(articles.id, saved.id))),
  );
  return saved.id;
}

/** Publishes (dated now when it never was) or unpublishes an article, and purges its pages. */
export async function setArticleStatus(id: number, status: PublicationStatus, database?: Db): Promise<void> {
  const db = database ?? (await configuredDb());
  const [row] = await db.select().from(articles).where(eq(articles.id, id));
  if (!row) throw notFound('文章不存在');
  await db
    .update(articles)
    .set({
      status,
      publishedAt: row.publishedAt ?? (status === 'published' ? new Date() : null),
      updatedAt: new Date(),
    })
    .where(eq(articles.id, id));
  await contentChanged(row.kind);
}

/** The album numbered `id` (albums and collections share one table, told apart by kind). */
const isAlbum = (id: number) => and(eq(fontGroups.kind, 'album'), eq(fontGroups.id, id));

/** Creates an album as a draft, or updates one with its fonts, and purges the pages that show it. */
export async function saveAlbum(id: number | undefined, input: AlbumInput, database?: Db): Promise<number> {
  const db = database ?? (await configuredDb());
  const familyIds = await familyIdsOf(db, input.fonts);
  const values = { title: input.title, summary: input.summary, descriptionHtml: renderMarkdown(input.body) };
  const saved = await db.transaction(async (tx) => {
    const [row] =
      id === undefined
        ? await tx
            .insert(fontGroups)
            .values({ ...values, kind: 'album', status: 'draft' })
            .returning()
        : await tx.update(fontGroups).set(values).where(isAlbum(id)).returning();
    if (!row) throw notFound('专辑不存在');
    await tx.delete(fontGroupFonts).where(and(eq(fontGroupFonts.kind, 'album'), eq(fontGroupFonts.groupId, row.id)));
    if (familyIds.length > 0)
      await tx
        .insert(fontGroupFonts)
        .values(familyIds.map((familyId, sort) => ({ kind: 'album' as const, groupId: row.id, familyId, sort })));
    return row;
  });
  await publishChange(
    db,
    'album',
    saved.coverKey,
    { kind: 'album', slug: slugFor('album', saved.coverKey, saved.id), title: input.title, fonts: input.fonts },
    async (coverKey) => void (await db.update(fontGroups).set({ coverKey }).where(isAlbum(saved.id))),
  );
  return saved.id;
}

/** Publishes or unpublishes an album. */
export async function setAlbumStatus(id: number, status: PublicationStatus, database?: Db): Promise<void> {
  const db = database ?? (await configuredDb());
  const [row] = await db.select().from(fontGroups).where(isAlbum(id));
  if (!row) throw notFound('专辑不存在');
  await db
    .update(fontGroups)
    .set({ status, publishedAt: row.publishedAt ?? (status === 'published' ? new Date() : null) })
    .where(isAlbum(id));
  await contentChanged('album');
}

/** Creates a case as a draft, or updates one, and purges the case page. */
export async function saveCase(id: number | undefined, input: CaseInput, database?: Db): Promise<number> {
  const db = database ?? (await configuredDb());
  const [familyId] = await familyIdsOf(db, input.font ? [input.font] : []);
  const values = {
    title: input.title,
    summary: input.summary,
    bodyHtml: renderMarkdown(input.body),
    client: input.client || null,
    familyId: familyId ?? null,
  };
  const [row] =
    id === undefined
      ? await db
          .insert(cases)
          .values({ ...values, status: 'draft' })
          .returning()
      : await db.update(cases).set(values).where(eq(cases.id, id)).returning();
  if (!row) throw notFound('案例不存在');
  const saved = row;
  await publishChange(
    db,
    'case',
    saved.coverKey,
    {
      kind: 'case',
      slug: slugFor('case', saved.coverKey, saved.id),
      title: input.title,
      fonts: input.font ? [input.font] : [],
    },
    async (coverKey) => void (await db.update(cases).set({ coverKey }).where(eq(cases.id, saved.id))),
  );
  return saved.id;
}

/** Publishes or unpublishes a case. */
export async function setCaseStatus(id: number, status: PublicationStatus, database?: Db): Promise<void> {
  const db = database ?? (await configuredDb());
  const [row] = await db.select().from(cases).where(eq(cases.id, id));
  if (!row) throw notFound('案例不存在');
  await db
    .update(cases)
    .set({ status, publishedAt: row.publishedAt ?? (status === 'published' ? new Date() : null) })
    .where(eq(cases.id, id));
  await contentChanged('case');
}

/** Empties the whole page cache and rebuilds the search index on next use (the editors' "rebuild" button). */
export async function rebuildAllPages(): Promise<void> {
  await contentChanged('all');
}
