import { and, count, eq, inArray } from 'drizzle-orm';
import { type CoverRequest, ensureCover, slugOfCoverKey } from '../../content/covers.ts';
import { renderMarkdown } from '../../content/html.ts';
import type { Storage } from '../../storage/index.ts';
import type { Db } from '../client.ts';
import {
  type ArticleKind,
  articles,
  cases,
  fontFamilies,
  fontGroupFonts,
  fontGroups,
  fonts,
  tags,
} from '../schema/index.ts';
import type { ContentFile } from './content-files.ts';

/** The order the encyclopedia's tags are listed in; tags not named here follow in file order. */
export const BAIKE_TAG_ORDER = ['楷书', '行书', '草书', '隶书', '篆书', '书法家', '碑帖', '文房四宝', '笔法'];

/** What seeding one item did: added it, kept its row as it was, or kept it and drew its cover again. */
export type ItemOutcome = 'added' | 'kept' | 'redrawn';

/** The context items are seeded in: database, storage, and where to report unknown fonts. */
export interface SeedItemContext {
  db: Db;
  storage: Storage;
  warn(message: string): void;
  /** Told when a kept site row's cover was drawn again. */
  redrawn?(): void;
}

/**
 * The key that ties an article row to its file. Kinds share the slug column, so the kind is part
 * of the key ('baike/kaishu'); editors' own articles have no slug.
 */
export function articleSlug(file: Pick<ContentFile, 'kind' | 'slug'>): string {
  return `${file.kind}/${file.slug}`;
}

/** Resolves the font list of a file to family ids: family gnos or child font gnos, unknown ones reported. */
export async function resolveFamilies(ctx: SeedItemContext, file: ContentFile): Promise<number[]> {
  if (file.fonts.length === 0) return [];
  const byFamily = await ctx.db
    .select({ id: fontFamilies.id, gno: fontFamilies.gno })
    .from(fontFamilies)
    .where(inArray(fontFamilies.gno, file.fonts));
  const byChild = await ctx.db
    .select({ id: fonts.familyId, gno: fonts.gno })
    .from(fonts)
    .where(inArray(fonts.gno, file.fonts));
  const ids: number[] = [];
  for (const gno of file.fonts) {
    const id = byFamily.find((row) => row.gno === gno)?.id ?? byChild.find((row) => row.gno === gno)?.id;
    if (id === undefined) ctx.warn(`${file.kind}/${file.slug}.md: font '${gno}' is not in the library, left out`);
    else if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** Family gnos of the given ids, in the same order (for drawing covers in the item's fonts). */
async function familyGnos(db: Db, ids: number[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: fontFamilies.id, gno: fontFamilies.gno })
    .from(fontFamilies)
    .where(inArray(fontFamilies.id, ids));
  return ids.map((id) => rows.find((row) => row.id === id)?.gno).filter((gno): gno is string => Boolean(gno));
}

/**
 * Draws the cover of a kept row again when what it is drawn from changed since it was drawn (the
 * drawing rules, the faces its text needs): the key then differs, and the row takes the new one.
 * Only a cover still named after the seed file is touched; editors' own choices are theirs.
 */
export async function redrawCover(
  ctx: SeedItemContext,
  current: string | null,
  request: CoverRequest,
  store: (coverKey: string) => Promise<unknown>,
): Promise<ItemOutcome> {
  if (slugOfCoverKey(request.kind, current) !== request.slug) return 'kept';
  const coverKey = await ensureCover(ctx.db, ctx.storage, request);
  if (coverKey === current) return 'kept';
  await store(coverKey);
  return 'redrawn';
}

/** Only web addresses and stored files may be played as a video. */
function safeVideoUrl(url: string | undefined): string | null {
  if (!url) return null;
  return /^(https:\/\/|http:\/\/|\/files\/)[^\s"'<>]+$/i.test(url) ? url : null;
}

/**
 * Finds or creates the grouping tag of an article, namespaced by its kind. Baike tags take their
 * place in BAIKE_TAG_ORDER; other tags list in the order they first appear.
 */
export async function ensureArticleTag(db: Db, kind: ArticleKind, name: string): Promise<number> {
  const [found] = await db
    .select({ id: tags.id })
    .from(tags)
    .where(and(eq(tags.kind, kind), eq(tags.name, name)));
  if (found) return found.id;
  const index = kind === 'baike' ? BAIKE_TAG_ORDER.indexOf(name) : -1;
  const [existing] = await db.select({ n: count() }).from(tags).where(eq(tags.kind, kind));
  const sort = index === -1 ? BAIKE_TAG_ORDER.length + (existing?.n ?? 0) : index;
  const [created] = await db.insert(tags).values({ kind, name, sort }).onConflictDoNothing().returning({ id: tags.id });
  if (created) return created.id;
  return ensureArticleTag(db, kind, name);
}

/**
 * Answers whether the item of a file is in the database: an article by its slug ('news/<slug>'), an
 * album, collection or case by the file name it was seeded from (their `slug`).
 */
export async function itemExists(db: Db, file: ContentFile): Promise<boolean> {
  if (file.kind === 'album' || file.kind === 'heji') {
    const kind = file.kind;
    const [row] = await db
      .select({ id: fontGroups.id })
      .from(fontGroups)
      .where(and(eq(fontGroups.kind, kind), eq(fontGroups.slug, file.slug)));
    return row !== undefined;
  }
  if (file.kind === 'case') {
    const [row] = await db.select({ id: cases.id }).from(cases).where(eq(cases.slug, file.slug));
    return row !== undefined;
  }
  const [row] = await db
    .select({ id: articles.id })
    .from(articles)
    .where(eq(articles.slug, articleSlug(file)));
  return row !== undefined;
}

/**
 * Seeds an article file (news, baike, zixun) unless its row exists (whose cover may be drawn again).
 * The slug is unique, so of two seeders adding the same file at once one row is written.
 */
export async function seedArticle(ctx: SeedItemContext, file: ContentFile): Promise<ItemOutcome> {
  if (file.kind !== 'news' && file.kind !== 'baike' && file.kind !== 'zixun')
    throw new Error(`not an article: ${file.kind}`);
  const slug = articleSlug(file);
  const [existing] = await ctx.db
    .select({ id: articles.id, title: articles.title, coverKey: articles.coverKey })
    .from(articles)
    .where(eq(articles.slug, slug));
  if (existing) {
    // A title an editor changed was drawn, as the editor saves it, in the kind's own fonts.
    // Unknown fonts were reported when the item was added; a kept item is not reported again.
    const quiet = { ...ctx, warn: () => undefined };
    const fonts = existing.title === file.title ? await familyGnos(ctx.db, await resolveFamilies(quiet, file)) : [];
    return redrawCover(
      ctx,
      existing.coverKey,
      { kind: file.kind, slug: file.slug, title: existing.title, fonts },
      (key) => ctx.db.update(articles).set({ coverKey: key }).where(eq(articles.id, existing.id)),
    );
  }
  const familyIds = await resolveFamilies(ctx, file);
  const coverKey = await ensureCover(ctx.db, ctx.storage, {
    kind: file.kind,
    slug: file.slug,
    title: file.title,
    fonts: await familyGnos(ctx.db, familyIds),
  });
  const tagId = file.tag ? await ensureArticleTag(ctx.db, file.kind, file.tag) : null;
  const publishedAt = file.publishedAt ?? new Date();
  const inserted = await ctx.db
    .insert(articles)
    .values({
      kind: file.kind,
      slug,
      title: file.title,
      summary: file.summary,
      bodyHtml: renderMarkdown(file.body),
      coverKey,
      author: file.author ?? null,
      source: file.source ?? null,
      tagId,
      status: 'published',
      publishedAt,
      videoUrl: safeVideoUrl(file.video),
      createdAt: publishedAt,
      updatedAt: publishedAt,
    })
    .onConflictDoNothing()
    .returning({ id: articles.id });
  return inserted.length > 0 ? 'added' : 'kept';
}

/** Seeds an album or collection (heji) file with its fonts unless a row of its kind and slug exists. */
export async function seedFontGroup(ctx: SeedItemContext, file: ContentFile, sort: number): Promise<ItemOutcome> {
  if (file.kind !== 'album' && file.kind !== 'heji') throw new Error(`not a font group: ${file.kind}`);
  const kind = file.kind;
  const [existing] = await ctx.db
    .select({ id: fontGroups.id, title: fontGroups.title, coverKey: fontGroups.coverKey })
    .from(fontGroups)
    .where(and(eq(fontGroups.kind, kind), eq(fontGroups.slug, file.slug)));
  if (existing) {
    const members = await ctx.db
      .select({ gno: fontFamilies.gno })
      .from(fontGroupFonts)
      .innerJoin(fontFamilies, eq(fontGroupFonts.familyId, fontFamilies.id))
      .where(and(eq(fontGroupFonts.kind, kind), eq(fontGroupFonts.groupId, existing.id)))
      .orderBy(fontGroupFonts.sort);
    const request = { kind, slug: file.slug, title: existing.title, fonts: members.map((member) => member.gno) };
    return redrawCover(ctx, existing.coverKey, request, (key) =>
      ctx.db
        .update(fontGroups)
        .set({ coverKey: key })
        .where(and(eq(fontGroups.kind, kind), eq(fontGroups.id, existing.id))),
    );
  }
  const familyIds = await resolveFamilies(ctx, file);
  const coverKey = await ensureCover(ctx.db, ctx.storage, {
    kind: file.kind,
    slug: file.slug,
    title: file.title,
    fonts: await familyGnos(ctx.db, familyIds),
  });
  const values = {
    slug: file.slug,
    title: file.title,
    summary: file.summary,
    descriptionHtml: renderMarkdown(file.body),
    coverKey,
    status: 'published' as const,
    sort: file.sort ?? sort,
    publishedAt: file.publishedAt ?? new Date(),
  };
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(fontGroups)
      .values({ ...values, kind })
      .onConflictDoNothing()
      .returning({ id: fontGroups.id });
    if (!row) return 'kept';
    if (familyIds.length > 0)
      await tx
        .insert(fontGroupFonts)
        .values(familyIds.map((familyId, index) => ({ kind, groupId: row.id, familyId, sort: index })));
    return 'added';
  });
}

/** Seeds a case file unless a row of its slug exists; the first font it names is the case's family. */
export async function seedCase(ctx: SeedItemContext, file: ContentFile, sort: number): Promise<ItemOutcome> {
  const [existing] = await ctx.db
    .select({ id: cases.id, title: cases.title, coverKey: cases.coverKey, familyId: cases.familyId })
    .from(cases)
    .where(eq(cases.slug, file.slug));
  if (existing) {
    const fonts = await familyGnos(ctx.db, existing.familyId ? [existing.familyId] : []);
    return redrawCover(ctx, existing.coverKey, { kind: 'case', slug: file.slug, title: existing.title, fonts }, (key) =>
      ctx.db.update(cases).set({ coverKey: key }).where(eq(cases.id, existing.id)),
    );
  }
  const familyIds = await resolveFamilies(ctx, file);
  const coverKey = await ensureCover(ctx.db, ctx.storage, {
    kind: 'case',
    slug: file.slug,
    title: file.title,
    fonts: await familyGnos(ctx.db, familyIds),
  });
  const inserted = await ctx.db
    .insert(cases)
    .values({
      slug: file.slug,
      title: file.title,
      client: file.client ?? null,
      summary: file.summary,
      bodyHtml: renderMarkdown(file.body),
      coverKey,
      familyId: familyIds[0] ?? null,
      status: 'published',
      sort: file.sort ?? sort,
      publishedAt: file.publishedAt ?? new Date(),
    })
    .onConflictDoNothing()
    .returning({ id: cases.id });
  return inserted.length > 0 ? 'added' : 'kept';
}
