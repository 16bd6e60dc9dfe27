import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { accounts, jobs, submissions } from '../../src/server/db/schema/index.ts';
import { openTestDatabase, queryRows, type TestDatabase } from '../helpers/database.ts';

describe('jsonb columns', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  test('returns a submission’s design model as the same object, null by default', async () => {
    const { db } = database;
    const [account] = await db.insert(accounts).values({ mobile: '13500000004' }).returning();
    if (!account) throw new Error('fixture account was not created');
    const design = {
      origin: 'derived' as const,
      baseFont: '思源宋体 "Source Han Serif"',
      method: 'digital' as const,
      usage: 'text' as const,
      notes: '历时两年\n样张 1.png',
    };
    const [withDesign] = await db
      .insert(submissions)
      .values({ accountId: account.id, fontName: '行书', design })
      .returning();
    const [withoutDesign] = await db
      .insert(submissions)
      .values({ accountId: account.id, fontName: '草书' })
      .returning();

    const [read] = await db
      .select()
      .from(submissions)
      .where(eq(submissions.id, withDesign?.id ?? -1));
    expect(read?.design).toEqual(design);
    expect(withoutDesign?.design).toBeNull();
  });

  test('stores job input and result as JSON objects that SQL can look into', async () => {
    const { db } = database;
    const input = { text: '永字八法', sizes: [12, 16], options: { pixel: true, grid: null } };
    const result = { files: [{ key: 'jobs/out.ttf', bytes: 1024 }] };
    const [job] = await db.insert(jobs).values({ task: 143, input }).returning();
    if (!job) throw new Error('job was not created');
    await db.update(jobs).set({ status: 'done', progress: 100, result }).where(eq(jobs.id, job.id));

    const [read] = await db.select().from(jobs).where(eq(jobs.id, job.id));
    expect(read?.input).toEqual(input);
    expect(read?.result).toEqual(result);
    const [looked] = await queryRows<{ text: string; type: string }>(
      db,
      sql`select input->>'text' as text, jsonb_typeof(result) as type from jobs where id = ${job.id}`,
    );
    expect(looked).toEqual({ text: '永字八法', type: 'object' });
  });
});
