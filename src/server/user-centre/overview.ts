import { and, count, desc, eq, isNull } from 'drizzle-orm';
import type { UserOverview } from '../../contract/messages.ts';
import { SUBMISSION_STATUS_NAMES } from '../../contract/submissions.ts';
import { loadUserInfo } from '../accounts/profile.ts';
import { db as configuredDb, type Db } from '../db/client.ts';
import { downloadHistory, favorites, fontFamilies, notifications, submissions } from '../db/schema/index.ts';
import { listFavoriteAlbums, listFavoriteArticles } from '../favorites/content.ts';
import { listNotifications } from '../messages/notifications.ts';
import { signingStatus } from '../signing/service.ts';
import { listPixelProjects } from '../tools/pixel-projects.ts';

const LATEST = 4;

/** What the user keeps: counts of each kind and the most recently kept items of all kinds. */
export async function favoriteSummary(accountId: number, database?: Db): Promise<UserOverview['favorites']> {
  const db = database ?? (await configuredDb());
  const [fonts, albums, articles] = await Promise.all([
    db
      .select({ gno: fontFamilies.gno, name: fontFamilies.nameZh, at: favorites.createdAt })
      .from(favorites)
      .innerJoin(fontFamilies, eq(fontFamilies.id, favorites.familyId))
      .where(and(eq(favorites.accountId, accountId), eq(favorites.target, 'font'), eq(fontFamilies.published, true)))
      .orderBy(desc(favorites.createdAt)),
    listFavoriteAlbums(accountId, db),
    listFavoriteArticles(accountId, db),
  ]);
  const latest: UserOverview['favorites']['latest'] = [
    ...fonts.map((row) => ({
      kind: 'font' as const,
      title: row.name,
      href: `/font/${row.gno}`,
      at: row.at.toISOString(),
    })),
    ...albums.map((album) => ({ kind: 'album' as const, title: album.title, href: album.url, at: album.createdAt })),
    ...articles.map((article) => ({
      kind: 'article' as const,
      title: article.title,
      href: article.url,
      at: article.createdAt,
    })),
  ]
    .sort((a, b) => b.at.localeCompare(a.at))
    .slice(0, LATEST);
  return { fonts: fonts.length, albums: albums.length, articles: articles.length, latest };
}

/**
 * Everything the user centre's home shows, in one answer: who the user is, what they keep, their
 * downloads, submissions, unread messages and whether they have signed the contributor agreement.
 * The parts are read side by side.
 */
export async function userOverview(accountId: number, database?: Db): Promise<UserOverview> {
  const db = database ?? (await configuredDb());
  const mineDownloads = eq(downloadHistory.accountId, accountId);
  const mineSubmissions = eq(submissions.accountId, accountId);
  const [
    account,
    favoriteData,
    downloadCount,
    downloadRows,
    submissionCount,
    submissionRows,
    messages,
    unread,
    signing,
    projects,
  ] = await Promise.all([
    loadUserInfo(accountId),
    favoriteSummary(accountId, db),
    db.select({ n: count() }).from(downloadHistory).where(mineDownloads),
    db
      .select({ gno: fontFamilies.gno, name: fontFamilies.nameZh, at: downloadHistory.createdAt })
      .from(downloadHistory)
      .innerJoin(fontFamilies, eq(fontFamilies.id, downloadHistory.familyId))
      .where(mineDownloads)
      .orderBy(desc(downloadHistory.createdAt), desc(downloadHistory.id))
      .limit(LATEST),
    db.select({ n: count() }).from(submissions).where(mineSubmissions),
    db
      .select({
        uid: submissions.uid,
        fontName: submissions.fontName,
        status: submissions.status,
        at: submissions.updatedAt,
      })
      .from(submissions)
      .where(mineSubmissions)
      .orderBy(desc(submissions.updatedAt), desc(submissions.id))
      .limit(LATEST),
    listNotifications(accountId, { current: 1, size: LATEST }, db),
    db
      .select({ n: count() })
      .from(notifications)
      .where(and(eq(notifications.accountId, accountId), isNull(notifications.readAt))),
    signingStatus(accountId, db),
    listPixelProjects(accountId, db),
  ]);
  return {
    account,
    favorites: favoriteData,
    downloads: {
      total: downloadCount[0]?.n ?? 0,
      latest: downloadRows.map((row) => ({ familyName: row.name, href: `/font/${row.gno}`, at: row.at.toISOString() })),
    },
    submissions: {
      total: submissionCount[0]?.n ?? 0,
      latest: submissionRows.map((row) => ({
        uid: row.uid,
        fontName: row.fontName,
        status: row.status,
        statusName: SUBMISSION_STATUS_NAMES[row.status],
        at: row.at.toISOString(),
      })),
    },
    messages: { unread: unread[0]?.n ?? 0, latest: messages.records },
    signing,
    pixelProjects: projects.slice(0, LATEST),
  };
}
