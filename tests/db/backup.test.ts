import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, getTableName } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type BackupManifest,
  backupTo,
  RestoreError,
  restoreFrom,
  tablesInOrder,
} from '../../src/server/backup/archive.ts';
import {
  accounts,
  articles,
  customFontRequestFiles,
  customFontRequests,
  favorites,
  fontFamilies,
  fonts,
  notifications,
  submissionFiles,
  submissions,
} from '../../src/server/db/schema/index.ts';
import { familyValues, fontValues, openTestDatabase, type TestDatabase } from '../helpers/database.ts';

// A site is backed up, wiped and restored on another machine (another database and data folder):
// every user, favourite, article, submission and stored file comes back, ids keep counting after
// the restored ones, and the secrets that signed links are the same.

let source: TestDatabase;
let target: TestDatabase;
const folders: string[] = [];
const folder = (name: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `backup-${name}-`));
  folders.push(dir);
  return dir;
};

beforeAll(async () => {
  source = await openTestDatabase();
  target = await openTestDatabase();
});

afterAll(async () => {
  await source?.close();
  await target?.close();
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

describe('backup and restore', () => {
  test('tables come parents first, so rows are written back before the rows that refer to them', () => {
    const names = tablesInOrder().map((table) => getTableName(table));
    expect(names.indexOf('accounts')).toBeLessThan(names.indexOf('favorites'));
    expect(names.indexOf('font_families')).toBeLessThan(names.indexOf('fonts'));
    expect(names.indexOf('submissions')).toBeLessThan(names.indexOf('submission_files'));
  });

  test('a wiped site comes back whole from one archive', async () => {
    const { db } = source;
    const sourceDir = folder('source');
    const [reader] = await db
      .insert(accounts)
      .values({ email: 'reader@example.com', nickname: '墨客', createdAt: new Date('2026-03-01T08:00:00Z') })
      .returning();
    if (!reader) throw new Error('no account');
    const [family] = await db.insert(fontFamilies).values(familyValues('mo-xiang-hei')).returning();
    if (!family) throw new Error('no family');
    await db.insert(fonts).values(fontValues(family.id, 'mo-xiang-hei-400'));
    await db.insert(favorites).values({ accountId: reader.id, target: 'font', familyId: family.id });
    await db
      .insert(articles)
      .values({ kind: 'news', title: '字体与排版', bodyHtml: '<p>正文</p>', status: 'published' });
    await db.insert(notifications).values({ accountId: reader.id, type: 'system', title: '欢迎', body: '你好' });
    const [submission] = await db
      .insert(submissions)
      .values({
        accountId: reader.id,
        fontName: '墨香黑',
        design: { origin: 'original', baseFont: '', method: 'digital', usage: 'text', notes: '一' },
      })
      .returning();
    if (!submission) throw new Error('no submission');
    const upload = `private/submissions/${submission.uid}/a/source.ttf`;
    await db
      .insert(submissionFiles)
      .values({ submissionId: submission.id, kind: 'font', fileKey: upload, name: '墨香黑.ttf', size: 4 });
    fs.mkdirSync(path.join(sourceDir, 'storage', path.dirname(upload)), { recursive: true });
    fs.writeFileSync(path.join(sourceDir, 'storage', upload), 'font');
    const [request] = await db
      .insert(customFontRequests)
      .values({
        accountId: reader.id,
        organisation: '青禾茶饮',
        contactName: '周宁',
        kind: 'brand',
        charset: 'gb2312',
        budget: 'tbd',
        stage: 'quoted',
        quote: '8 万元',
      })
      .returning();
    if (!request) throw new Error('no request');
    const attachment = `private/custom-fonts/${reader.id}-a/brand-guide`;
    await db
      .insert(customFontRequestFiles)
      .values({ requestId: request.id, fileKey: attachment, name: '品牌手册.pdf', size: 3, type: 'pdf' });
    fs.mkdirSync(path.join(sourceDir, 'storage', path.dirname(attachment)), { recursive: true });
    fs.writeFileSync(path.join(sourceDir, 'storage', attachment), 'pdf');
    fs.mkdirSync(path.join(sourceDir, 'storage', 'tools', 'uploads', 'x'), { recursive: true });
    fs.writeFileSync(path.join(sourceDir, 'storage', 'tools', 'uploads', 'x', 'source'), 'temporary');
    fs.mkdirSync(path.join(sourceDir, 'secrets'));
    fs.writeFileSync(path.join(sourceDir, 'secrets', 'download-url.key'), 'secret-of-the-site');

    const archive = path.join(folder('archives'), 'site.tar.gz');
    const manifest: BackupManifest = await backupTo(db, sourceDir, archive);
    expect(manifest.tables['accounts']).toBe(1);
    expect(manifest.files).toBe(2);
    expect(fs.existsSync(`${archive}.partial`)).toBe(false);
    // The archive holds every password hash, session hash and signing secret: its owner alone reads it.
    expect(fs.statSync(archive).mode & 0o777).toBe(0o600);

    // Another machine: an empty, migrated database and an empty data folder.
    const targetDir = folder('target');
    await restoreFrom(target.db, targetDir, archive);
    const [restored] = await target.db.select().from(accounts).where(eq(accounts.email, 'reader@example.com'));
    expect(restored).toMatchObject({ id: reader.id, nickname: '墨客', createdAt: new Date('2026-03-01T08:00:00Z') });
    expect(await target.db.select({ familyId: favorites.familyId }).from(favorites)).toEqual([{ familyId: family.id }]);
    expect((await target.db.select({ title: articles.title }).from(articles)).map((a) => a.title)).toEqual([
      '字体与排版',
    ]);
    const [restoredSubmission] = await target.db.select().from(submissions);
    expect(restoredSubmission?.uid).toBe(submission.uid);
    expect(restoredSubmission?.design).toEqual(submission.design);
    expect(fs.readFileSync(path.join(targetDir, 'storage', upload), 'utf8')).toBe('font');
    expect(
      await target.db.select({ uid: customFontRequests.uid, quote: customFontRequests.quote }).from(customFontRequests),
    ).toEqual([{ uid: request.uid, quote: '8 万元' }]);
    expect(fs.readFileSync(path.join(targetDir, 'storage', attachment), 'utf8')).toBe('pdf');
    expect(fs.existsSync(path.join(targetDir, 'storage', 'tools'))).toBe(false);
    expect(fs.readFileSync(path.join(targetDir, 'secrets', 'download-url.key'), 'utf8')).toBe('secret-of-the-site');

    // New rows take ids after the restored ones.
    const [next] = await target.db.insert(accounts).values({ email: 'new@example.com' }).returning();
    expect(next?.id).toBeGreaterThan(reader.id);

    // A second restore into a site that has accounts is refused, and changes nothing.
    await expect(restoreFrom(target.db, targetDir, archive)).rejects.toThrow(RestoreError);
    expect(await target.db.select().from(accounts)).toHaveLength(2);
  });
});
