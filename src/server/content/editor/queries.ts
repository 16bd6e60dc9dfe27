import { and, asc, desc, eq, type SQL } from 'drizzle-orm';
import { canEdit } from '../../accounts/editor-role.ts';
import { systemClock } from '../../auth/clock.ts';
import { findSession } from '../../auth/sessions.ts';
import { db as configuredDb, type Db } from '../../db/client.ts';
import {
  type ArticleKind,
  articles,
  cases,
  fontFamilies,
  fontGroupFonts,
  fontGroups,
  type PublicationStatus,
  tags,
} from '../../db/schema/index.ts';

/** The account behind a session token when it may edit content, else null. */
export async function editorOfToken(
  token: string | undefined,
  database?: Db,
): Promise<{ id: number; nickname: string } | null> {
  if (!token || token.length > 256) return null;
  const db = database ?? (await configuredDb());
  const found = await findSession(db, token, systemClock);
  if (found.status !== 'valid' || !canEdit(found.account.role) || found.account.disabledAt) return null;
  return { id: found.account.id, nickname: found.account.nickname };
}

/**
 * The editor an editing page is for, or where to send the reader instead: a visitor to the login
 * (and back to `path`), a signed-in account without the role to the editing area's start page,
 * which says why.
 */
export async function editorOfPage(
  token: string | undefined,
  path: string,
): Promise<{ editor: { id: number; nickname: string } } | { redirect: string }> {
  const editor = await editorOfToken(token);
  if (editor) return { editor };
  return { redirect: token ? '/editor' : `/?redirect=${encodeURIComponent(path)}` };
}

/** A row of the editing area's lists: every status, newest change first. */
export interface EditorListItem {
  id: number;
  title: string;
  status: PublicationStatus;
  kind?: ArticleKind;
  publishedAt: string | null;
}

/** The articles of a kind (drafts included) for the editing area, most recently changed first. */
export async function editorArticles(kind: ArticleKind, database?: Db): Promise<EditorListItem[]> {
  const db = database ?? (await configuredDb());
  const rows = await db
    .select({
      id: articles.id,
      title: articles.title,
      status: articles.status,
      kind: articles.kind,
      publishedAt: articles.publishedAt,
    })
    .from(articles)
    .where(eq(articles.kind, kind))
    .orderBy(desc(articles.updatedAt), desc(articles.id));
  return rows.map((row) => ({ ...row, publishedAt: row.publishedAt?.toISOString() ?? null }));
}

/** Albums or cases (drafts included) for the editing area, highest id first. */
export async function editorGroups(type: 'album' | 'case', database?: Db): Promise<EditorListItem[]> {
  const db = database ?? (await configuredDb());
  const rows =
    type === 'album'
      ? await db
          .select({
            id: fontGroups.id,
            title: fontGroups.title,
            status: fontGroups.status,
            publishedAt: fontGroups.publishedAt,
          })
          .from(fontGroups)
          .where(eq(fontGroups.kind, 'album'))
          .orderBy(desc(fontGroups.id))
      : await db
          .select({ id: cases.id, title: cases.title, status: cases.status, publishedAt: cases.publishedAt })
          .from(cases)
          .orderBy(desc(cases.id));
  return rows.map((row) => ({ ...row, publishedAt: row.publishedAt?.toISOString() ?? null }));
}

/** What the edit form of an article shows. */
export interface EditableArticle {
  id: number;
  kind: ArticleKind;
  status: PublicationStatus;
  title: string;
  summary: string;
  body: string;
  author: string;
  source: string;
  tag: string;
  videoUrl: string;
}

/** An article as its edit form shows it (the stored HTML is the editable body), or undefined. */
export async function editableArticle(id: number, database?: Db): Promise<EditableArticle | undefined> {
  const db = database ?? (await configuredDb());
  const [row] = await db
    .select({ article: articles, tag: tags.name })
    .from(articles)
    .leftJoin(tags, eq(articles.tagId, tags.id))
    .where(eq(articles.id, id));
  if (!row) return undefined;
  const { article } = row;
  return {
    id: article.id,
    kind: article.kind,
    status: article.status,
    title: article.title,
    summary: article.summary,
    body: article.bodyHtml,
    author: article.author ?? '',
    source: article.source ?? '',
    tag: row.tag ?? '',
    videoUrl: article.videoUrl ?? '',
  };
}

/** An album as its edit form shows it: its fonts as gnos in order, or undefined. */
export async function editableAlbum(id: number, database?: Db) {
  const db = database ?? (await configuredDb());
  const [album] = await db
    .select()
    .from(fontGroups)
    .where(and(eq(fontGroups.kind, 'album'), eq(fontGroups.id, id)));
  if (!album) return undefined;
  const members = await db
    .select({ gno: fontFamilies.gno })
    .from(fontGroupFonts)
    .innerJoin(fontFamilies, eq(fontFamilies.id, fontGroupFonts.familyId))
    .where(and(eq(fontGroupFonts.kind, 'album'), eq(fontGroupFonts.groupId, id)))
    .orderBy(asc(fontGroupFonts.sort));
  return {
    id: album.id,
    status: album.status,
    title: album.title,
    summary: album.summary,
    body: album.descriptionHtml,
    fonts: members.map((member) => member.gno),
  };
}

/** A case as its edit form shows it, or undefined. */
export async function editableCase(id: number, database?: Db) {
  const db = database ?? (await configuredDb());
  const [row] = await db
    .select({ item: cases, gno: fontFamilies.gno })
    .from(cases)
    .leftJoin(fontFamilies, eq(fontFamilies.id, cases.familyId))
    .where(eq(cases.id, id));
  if (!row) return undefined;
  return {
    id: row.item.id,
    status: row.item.status,
    title: row.item.title,
    summary: row.item.summary,
    body: row.item.bodyHtml,
    client: row.item.client ?? '',
    font: row.gno ?? '',
  };
}

/** Family gnos and names for the editors' font pickers. */
export async function editorFontChoices(database?: Db): Promise<Array<{ gno: string; name: string }>> {
  const db = database ?? (await configuredDb());
  const published: SQL | undefined = and(eq(fontFamilies.published, true));
  return db
    .select({ gno: fontFamilies.gno, name: fontFamilies.nameZh })
    .from(fontFamilies)
    .where(published)
    .orderBy(asc(fontFamilies.id));
}
