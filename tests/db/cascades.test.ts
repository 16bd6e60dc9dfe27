import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  accounts,
  articles,
  articleTags,
  cases,
  downloadHistory,
  favoriteGroupFonts,
  favoriteGroups,
  favorites,
  fontFamilies,
  fontGroupFonts,
  fontGroups,
  fonts,
  jobs,
  messageBoard,
  notifications,
  sessions,
  submissionEvents,
  submissionFiles,
  submissions,
  tags,
} from '../../src/server/db/schema/index.ts';
import { familyValues, fontValues, openTestDatabase, type TestDatabase } from '../helpers/database.ts';

function first<T>(rows: T[]): T {
  const [row] = rows;
  if (row === undefined) throw new Error('expected a row');
  return row;
}

describe('foreign keys', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  test('removes an account’s own data and detaches what others still need when it is deleted', async () => {
    const { db } = database;
    const account = first(await db.insert(accounts).values({ email: 'gone@example.com' }).returning());
    const other = first(await db.insert(accounts).values({ email: 'stays@example.com' }).returning());
    const family = first(await db.insert(fontFamilies).values(familyValues('ma-shan-zheng')).returning());
    const article = first(await db.insert(articles).values({ kind: 'news', title: '新闻' }).returning());
    const group = first(await db.insert(favoriteGroups).values({ accountId: account.id, name: '常用' }).returning());
    await db.insert(favoriteGroupFonts).values({ groupId: group.id, familyId: family.id });
    await db.insert(sessions).values([
      { id: 'a'.repeat(64), accountId: account.id, expiresAt: new Date(Date.now() + 3_600_000) },
      { id: 'b'.repeat(64), accountId: other.id, expiresAt: new Date(Date.now() + 3_600_000) },
    ]);
    await db.insert(favorites).values([
      { accountId: account.id, target: 'font', familyId: family.id },
      { accountId: account.id, target: 'article', articleId: article.id },
    ]);
    await db.insert(notifications).values({ accountId: account.id, type: 'system', title: '欢迎' });
    const submission = first(
      await db.insert(submissions).values({ accountId: account.id, fontName: '手写体' }).returning(),
    );
    await db.insert(submissionEvents).values({ submissionId: submission.id, status: 'submitted' });
    await db.insert(submissionFiles).values({ submissionId: submission.id, kind: 'font', fileKey: 'u/1.ttf' });
    const message = first(
      await db
        .insert(messageBoard)
        .values({ name: '李', contact: 'li@example.com', content: '你好', accountId: account.id })
        .returning(),
    );
    const job = first(await db.insert(jobs).values({ task: 146, accountId: account.id }).returning());

    await db.delete(accounts).where(eq(accounts.id, account.id));

    expect((await db.select().from(sessions)).map((row) => row.accountId)).toEqual([other.id]);
    expect(await db.select().from(favoriteGroups)).toEqual([]);
    expect(await db.select().from(favoriteGroupFonts)).toEqual([]);
    expect(await db.select().from(favorites)).toEqual([]);
    expect(await db.select().from(notifications)).toEqual([]);
    expect(await db.select().from(submissions)).toEqual([]);
    expect(await db.select().from(submissionEvents)).toEqual([]);
    expect(await db.select().from(submissionFiles)).toEqual([]);
    const [keptMessage] = await db.select().from(messageBoard).where(eq(messageBoard.id, message.id));
    expect(keptMessage?.accountId).toBeNull();
    const [keptJob] = await db.select().from(jobs).where(eq(jobs.id, job.id));
    expect(keptJob?.accountId).toBeNull();
  });

  test('removes a family’s fonts and album entries but keeps cases when the family is deleted', async () => {
    const { db } = database;
    const family = first(await db.insert(fontFamilies).values(familyValues('long-cang')).returning());
    const kept = first(await db.insert(fontFamilies).values(familyValues('zcool-kuaile')).returning());
    await db.insert(fonts).values([fontValues(family.id, 'long-cang-400'), fontValues(kept.id, 'zcool-kuaile-400')]);
    const album = first(await db.insert(fontGroups).values({ kind: 'album', title: '手写' }).returning());
    await db.insert(fontGroupFonts).values([
      { kind: 'album', groupId: album.id, familyId: family.id, sort: 1 },
      { kind: 'album', groupId: album.id, familyId: kept.id, sort: 2 },
    ]);
    const showcase = first(await db.insert(cases).values({ title: '海报', familyId: family.id }).returning());
    await db.insert(downloadHistory).values({ familyId: family.id, ip: '127.0.0.1' });

    await db.delete(fontFamilies).where(eq(fontFamilies.id, family.id));

    expect((await db.select().from(fonts)).map((row) => row.gno)).toEqual(['zcool-kuaile-400']);
    expect((await db.select().from(fontGroupFonts)).map((row) => row.familyId)).toEqual([kept.id]);
    expect(await db.select().from(downloadHistory).where(eq(downloadHistory.familyId, family.id))).toEqual([]);
    const [keptCase] = await db.select().from(cases).where(eq(cases.id, showcase.id));
    expect(keptCase?.familyId).toBeNull();
  });

  test('keeps download history with no font when a child font is deleted', async () => {
    const { db } = database;
    const family = first(await db.insert(fontFamilies).values(familyValues('zhi-mang-xing')).returning());
    const font = first(await db.insert(fonts).values(fontValues(family.id, 'zhi-mang-xing-400')).returning());
    const download = first(
      await db.insert(downloadHistory).values({ familyId: family.id, fontId: font.id }).returning(),
    );

    await db.delete(fonts).where(eq(fonts.id, font.id));

    const [row] = await db.select().from(downloadHistory).where(eq(downloadHistory.id, download.id));
    expect(row?.fontId).toBeNull();
    expect(row?.familyId).toBe(family.id);
  });

  test('ungroups articles and drops their tag links when a tag is deleted', async () => {
    const { db } = database;
    const tag = first(await db.insert(tags).values({ kind: 'baike', name: '楷书' }).returning());
    const article = first(
      await db.insert(articles).values({ kind: 'baike', title: '颜体', tagId: tag.id }).returning(),
    );
    await db.insert(articleTags).values({ articleId: article.id, tagId: tag.id });

    await db.delete(tags).where(eq(tags.id, tag.id));

    const [row] = await db.select().from(articles).where(eq(articles.id, article.id));
    expect(row?.tagId).toBeNull();
    expect(await db.select().from(articleTags)).toEqual([]);
  });
});
