import { and, desc, eq } from 'drizzle-orm';
import { coverUrls } from '../content/covers.ts';
import { db as configuredDb, type Db } from '../db/client.ts';
import { type ArticleKind, articles, favorites, fontGroups } from '../db/schema/index.ts';
import { notFound } from '../http/envelope.ts';
import { storage } from '../storage/index.ts';
import { forgetFavorite, keepFavorite } from './store.ts';

/** A kept album (SPEC §3: favourite collection entries carry id). */
export interface FavoriteAlbumEntry {
  id: number;
  type: 'album';
  title: string;
  summary: string;
  cover: string | null;
  thumb: string | null;
  url: string;
  createdAt: string;
}

/** A kept article (SPEC §3: favourite article entries carry id). */
export interface FavoriteArticleEntry {
  id: number;
  kind: ArticleKind;
  title: string;
  summary: string;
  cover: string | null;
  thumb: string | null;
  url: string;
  createdAt: string;
}

/** The albums an account keeps, most recently kept first; unpublished ones are left out. */
export async function listFavoriteAlbums(accountId: number, database?: Db): Promise<FavoriteAlbumEntry[]> {
  const db = database ?? (await configuredDb());
  const rows = await db
    .select({ album: fontGroups, createdAt: favorites.createdAt })
    .from(favorites)
    .innerJoin(fontGroups, and(eq(fontGroups.kind, favorites.groupKind), eq(fontGroups.id, favorites.groupId)))
    .where(
      and(
        eq(favorites.accountId, accountId),
        eq(favorites.target, 'group'),
        eq(fontGroups.kind, 'album'),
        eq(fontGroups.status, 'published'),
      ),
    )
    .orderBy(desc(favorites.createdAt), desc(fontGroups.id));
  return rows.map(({ album, createdAt }) => ({
    id: album.id,
    type: 'album',
    title: album.title,
    summary: album.summary,
    ...coverUrls(storage(), album.coverKey),
    url: `/album/${album.id}`,
    createdAt: createdAt.toISOString(),
  }));
}

/** The articles an account keeps, most recently kept first; unpublished ones are left out. */
export async function listFavoriteArticles(accountId: number, database?: Db): Promise<FavoriteArticleEntry[]> {
  const db = database ?? (await configuredDb());
  const rows = await db
    .select({ article: articles, createdAt: favorites.createdAt })
    .from(favorites)
    .innerJoin(articles, eq(articles.id, favorites.articleId))
    .where(and(eq(favorites.accountId, accountId), eq(favorites.target, 'article'), eq(articles.status, 'published')))
    .orderBy(desc(favorites.createdAt), desc(articles.id));
  return rows.map(({ article, createdAt }) => ({
    id: article.id,
    kind: article.kind,
    title: article.title,
    summary: article.summary,
    ...coverUrls(storage(), article.coverKey),
    url: `/${article.kind}/${article.id}`,
    createdAt: createdAt.toISOString(),
  }));
}

/** Keeps a published album; keeping it again changes nothing. */
export async function addFavoriteAlbum(accountId: number, albumId: number, database?: Db): Promise<void> {
  const db = database ?? (await configuredDb());
  const [album] = await db
    .select({ id: fontGroups.id })
    .from(fontGroups)
    .where(and(eq(fontGroups.kind, 'album'), eq(fontGroups.id, albumId), eq(fontGroups.status, 'published')));
  if (!album) throw notFound('专辑不存在或已下架');
  await keepFavorite(db, accountId, { target: 'group', groupKind: 'album', groupId: albumId });
}

/** Lets an album go; an album that was not kept is no error. */
export async function deleteFavoriteAlbum(accountId: number, albumId: number, database?: Db): Promise<void> {
  const db = database ?? (await configuredDb());
  await forgetFavorite(db, accountId, { target: 'group', groupKind: 'album', groupId: albumId });
}

/** Keeps a published article of any kind; keeping it again changes nothing. */
export async function addFavoriteArticle(accountId: number, articleId: number, database?: Db): Promise<void> {
  const db = database ?? (await configuredDb());
  const [article] = await db
    .select({ id: articles.id })
    .from(articles)
    .where(and(eq(articles.id, articleId), eq(articles.status, 'published')));
  if (!article) throw notFound('文章不存在或已下架');
  await keepFavorite(db, accountId, { target: 'article', articleId });
}

/** Lets an article go; an article that was not kept is no error. */
export async function deleteFavoriteArticle(accountId: number, articleId: number, database?: Db): Promise<void> {
  const db = database ?? (await configuredDb());
  await forgetFavorite(db, accountId, { target: 'article', articleId });
}
