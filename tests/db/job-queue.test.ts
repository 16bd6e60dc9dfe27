import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type Database, type Db, openDatabase, useDatabase } from '../../src/server/db/client.ts';
import { jobs } from '../../src/server/db/schema/index.ts';
import { STALE_MS, settleJobs } from '../../src/server/tools/jobs.ts';
import { claimJob } from '../../src/server/tools/runner.ts';
import { openTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../helpers/database.ts';

// The queue's claim and recovery SQL on the engine under test (PGlite, or PostgreSQL with
// TEST_DATABASE_URL, where the two runners are two connection pools of their own).

let database: TestDatabase;
/** The second runner's handle: its own pool on PostgreSQL; PGlite is one process, so the same one. */
let second: Database | undefined;
let runnerB: Db;

beforeAll(async () => {
  database = await openTestDatabase();
  useDatabase(database);
  if (TEST_DATABASE_URL) second = await openDatabase(database.target.options);
  runnerB = second?.db ?? database.db;
});
afterAll(async () => {
  await second?.close();
  await database?.close();
});
beforeEach(async () => {
  await database.db.delete(jobs);
});

const queued = (owner: string, createdAt: Date) => ({
  task: 1,
  status: 'queued' as const,
  owner,
  input: { kind: 'convert', stem: 'x', token: 'x', params: {} },
  createdAt,
  expiresAt: new Date(Date.now() + 60 * 60_000),
});

/** Claims until the queue is empty, `parallel` claims at a time; answers the ids claimed. */
async function drain(handle: Db, parallel: number): Promise<string[]> {
  const claimed: string[] = [];
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      for (;;) {
        const row = await claimJob(handle);
        if (!row) return;
        claimed.push(row.id);
      }
    }),
  );
  return claimed;
}

describe('job queue', () => {
  test('two runners claiming at once over one database take every job exactly once', async () => {
    const base = Date.now() - 60_000;
    const rows = await database.db
      .insert(jobs)
      .values(Array.from({ length: 120 }, (_, i) => queued(`ip:${i % 7}`, new Date(base + i))))
      .returning({ id: jobs.id });
    const [a, b] = await Promise.all([drain(database.db, 4), drain(runnerB, 4)]);
    const all = [...(a ?? []), ...(b ?? [])];
    expect(all).toHaveLength(rows.length);
    expect(new Set(all).size).toBe(rows.length);
    const after = await database.db.select().from(jobs);
    expect(after.every((row) => row.status === 'running' && row.attempts === 1 && row.startedAt)).toBe(true);
    expect(await claimJob(runnerB)).toBeUndefined();
  });

  test('clients take turns: the client served longest ago goes first, then the oldest job', async () => {
    const base = Date.now() - 60_000;
    const [first, second, other] = await database.db
      .insert(jobs)
      .values([
        queued('ip:flood', new Date(base)),
        queued('ip:flood', new Date(base + 1)),
        queued('ip:other', new Date(base + 2)),
      ])
      .returning({ id: jobs.id });
    const order = [];
    for (let i = 0; i < 3; i++) order.push((await claimJob(database.db))?.id);
    expect(order).toEqual([first?.id, other?.id, second?.id]);
  });

  test('a job whose runner stops touching it is queued again once, then failed', async () => {
    const [job] = await database.db.insert(jobs).values(queued('ip:lost', new Date())).returning({ id: jobs.id });
    const read = async () =>
      (
        await database.db
          .select()
          .from(jobs)
          .where(eq(jobs.id, job?.id ?? ''))
      )[0];

    const claimed = await claimJob(database.db);
    expect(claimed?.id).toBe(job?.id);
    // Not yet stale: nothing changes.
    await settleJobs(new Date(Date.now() + STALE_MS / 2));
    expect((await read())?.status).toBe('running');

    await settleJobs(new Date(Date.now() + STALE_MS + 1_000));
    const requeued = await read();
    expect(requeued).toMatchObject({ status: 'queued', attempts: 1, progress: 0, step: '排队中' });

    const again = await claimJob(runnerB, new Date());
    expect(again).toMatchObject({ id: job?.id, attempts: 2 });
    await settleJobs(new Date(Date.now() + STALE_MS + 1_000));
    expect(await read()).toMatchObject({ status: 'failed', attempts: 2, error: '处理中断，请重新提交' });
    expect((await read())?.finishedAt).toBeInstanceOf(Date);
    expect(await claimJob(database.db)).toBeUndefined();
  });
});
