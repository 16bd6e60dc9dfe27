import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { accounts, favorites, fontDicts, fontFamilies, jobs, submissions } from '../../src/server/db/schema/index.ts';
import { familyValues, openTestDatabase, sqlStateOf, type TestDatabase } from '../helpers/database.ts';

const UNIQUE_VIOLATION = '23505';
const CHECK_VIOLATION = '23514';

describe('schema constraints', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  test('rejects a second account with the same e-mail', async () => {
    const { db } = database;
    await db.insert(accounts).values({ email: 'li@example.com' });
    expect(await sqlStateOf(db.insert(accounts).values({ email: 'li@example.com' }))).toBe(UNIQUE_VIOLATION);
  });

  test('rejects an e-mail that is not stored lower-case', async () => {
    expect(await sqlStateOf(database.db.insert(accounts).values({ email: 'Wang@Example.com' }))).toBe(CHECK_VIOLATION);
  });

  test('rejects a second account with the same mobile number', async () => {
    const { db } = database;
    await db.insert(accounts).values({ mobile: '13800138000' });
    expect(await sqlStateOf(db.insert(accounts).values({ mobile: '13800138000' }))).toBe(UNIQUE_VIOLATION);
  });

  test('allows any number of accounts without e-mail or mobile', async () => {
    const rows = await database.db
      .insert(accounts)
      .values([{ wechatUnionid: 'wx-a' }, { wechatUnionid: 'wx-b' }])
      .returning();
    expect(rows).toHaveLength(2);
    expect(rows.every((row) => row.email === null && row.mobile === null && row.role === 'user')).toBe(true);
  });

  test('rejects a role outside user, editor and admin', async () => {
    const insert = database.db.insert(accounts).values({ mobile: '13900000001', role: 'root' as 'admin' });
    expect(await sqlStateOf(insert)).toBe(CHECK_VIOLATION);
  });

  test('keeps one favourite row when the same font is starred twice with onConflictDoNothing', async () => {
    const { db } = database;
    const [account] = await db.insert(accounts).values({ mobile: '13700000002' }).returning();
    const [family] = await db.insert(fontFamilies).values(familyValues('noto-sans-sc')).returning();
    if (!account || !family) throw new Error('fixture rows were not created');
    const star = { accountId: account.id, target: 'font' as const, familyId: family.id };

    await db.insert(favorites).values(star).onConflictDoNothing();
    await db.insert(favorites).values(star).onConflictDoNothing();

    const rows = await db.select().from(favorites).where(eq(favorites.accountId, account.id));
    expect(rows).toHaveLength(1);
    expect(await sqlStateOf(db.insert(favorites).values(star))).toBe(UNIQUE_VIOLATION);
    // A favourite names exactly one thing: a font row with an article as well is refused.
    expect(await sqlStateOf(db.insert(favorites).values({ ...star, articleId: 1 }))).toBe(CHECK_VIOLATION);
  });

  test('keeps dictionary numbers unique within a key but not across keys', async () => {
    const { db } = database;
    await db.insert(fontDicts).values([
      { dictKey: 'category', dictNumber: '1', label: '黑体' },
      { dictKey: 'script', dictNumber: '1', label: '简体' },
    ]);
    const duplicate = db.insert(fontDicts).values({ dictKey: 'category', dictNumber: '1', label: '宋体' });
    expect(await sqlStateOf(duplicate)).toBe(UNIQUE_VIOLATION);
  });

  test('rejects a job progress above 100 and an unknown job status', async () => {
    const { db } = database;
    expect(await sqlStateOf(db.insert(jobs).values({ task: 125, progress: 101 }))).toBe(CHECK_VIOLATION);
    expect(await sqlStateOf(db.insert(jobs).values({ task: 125, status: 'lost' as 'done' }))).toBe(CHECK_VIOLATION);
  });

  test('gives each submission a distinct public uid and each job a uuid by default', async () => {
    const { db } = database;
    const [account] = await db.insert(accounts).values({ mobile: '13600000003' }).returning();
    if (!account) throw new Error('fixture account was not created');
    const rows = await db
      .insert(submissions)
      .values([
        { accountId: account.id, fontName: '甲' },
        { accountId: account.id, fontName: '乙' },
      ])
      .returning();
    expect(rows[0]?.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(rows[0]?.uid).not.toBe(rows[1]?.uid);
    expect(rows[0]?.status).toBe('draft');

    const [job] = await db.insert(jobs).values({ task: 143 }).returning();
    expect(job?.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(job?.status).toBe('queued');
  });
});
