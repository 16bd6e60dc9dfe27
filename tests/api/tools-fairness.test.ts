import { eq, inArray } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../src/server/app.ts';
import { fonts, jobs } from '../../src/server/db/schema/index.ts';
import { JOBS_AT_ONCE_PER_CLIENT } from '../../src/server/tools/limits.ts';
import { startJobRunner, stopJobRunner } from '../../src/server/tools/runner.ts';
import { sweepToolFiles } from '../../src/server/tools/sweeper.ts';
import type { LibraryFixture } from '../helpers/font-library.ts';
import { closeToolsApp, type JobAnswer, openToolsApp, waitForJob } from '../helpers/tools.ts';

let library: LibraryFixture;
let app: Hono;
/** The library's Noto Sans SC Regular, by its id. */
let source: { fontId: number };

beforeAll(async () => {
  ({ library, app } = await openToolsApp('tools-fairness'));
  const [font] = await library.db.select().from(fonts).where(eq(fonts.gno, 'noto-sans-sc-400'));
  source = { fontId: font?.id ?? 0 };
});
afterAll(() => closeToolsApp(library));

// A conversion of a library font into every format it allows: a few hundred milliseconds of work.
const heavy = () => ({ source, formats: ['ttf', 'woff', 'woff2', 'eot', 'svg'] });

async function start(body: unknown, clientAddress: string) {
  const res = await app.request(
    '/tools/api/convert',
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    { clientAddress },
  );
  return { res, body: (await res.json()) as { code: string; message: string; data: { jobId: string } } };
}

describe('tools shared fairly', () => {
  test('one address gets a few jobs at a time, and another client is served before its queue', async () => {
    const flood = [];
    for (let i = 0; i < 5; i++) flood.push(await start(heavy(), '10.9.0.1'));
    const accepted = flood.filter((answer) => answer.res.status === 200);
    const refused = flood.filter((answer) => answer.res.status === 429);
    expect(accepted).toHaveLength(JOBS_AT_ONCE_PER_CLIENT);
    expect(refused).toHaveLength(5 - JOBS_AT_ONCE_PER_CLIENT);
    expect(refused[0]?.body.message).toBe(`你已有 ${JOBS_AT_ONCE_PER_CLIENT} 个任务正在处理，请等它们完成后再提交`);
    expect(Number(refused[0]?.res.headers.get('Retry-After'))).toBeGreaterThan(0);

    // Another client's job, sent after the flood's, runs before the flood's second one.
    const other = await start(heavy(), '10.9.0.2');
    expect(other.res.status).toBe(200);
    const ids = [...accepted.map((answer) => answer.body.data.jobId), other.body.data.jobId];
    const done: JobAnswer[] = [];
    for (const id of ids) done.push(await waitForJob(app, id));
    expect(done.map((job) => job.state)).toEqual(['done', 'done', 'done']);
    const rows = await library.db.select().from(jobs).where(inArray(jobs.id, ids));
    const finished = (id: string) => rows.find((row) => row.id === id)?.finishedAt?.getTime() ?? 0;
    const [firstOfFlood, secondOfFlood] = accepted.map((answer) => answer.body.data.jobId) as [string, string];
    expect(finished(other.body.data.jobId)).toBeGreaterThan(finished(firstOfFlood));
    expect(finished(other.body.data.jobId)).toBeLessThan(finished(secondOfFlood));

    // Once its jobs are done, the address may start more.
    expect((await start(heavy(), '10.9.0.1')).res.status).toBe(200);
  });

  test('of a burst of requests sent at once from one address, only its share of jobs is accepted', async () => {
    const burst = await Promise.all(Array.from({ length: 12 }, () => start(heavy(), '10.9.3.1')));
    const accepted = burst.filter((answer) => answer.res.status === 200).map((answer) => answer.body.data.jobId);
    expect(accepted).toHaveLength(JOBS_AT_ONCE_PER_CLIENT);
    expect(burst.filter((answer) => answer.res.status === 429)).toHaveLength(12 - JOBS_AT_ONCE_PER_CLIENT);
    for (const id of accepted) await waitForJob(app, id);
  });

  test("another client's small subset starts beside a long conversion, before a long job queued ahead of it", async () => {
    // Queued while no runner runs, so that the order the runner meets them in is the test's.
    await stopJobRunner();
    const long = await start(heavy(), '10.9.2.1');
    const longToo = await start(heavy(), '10.9.2.2');
    const small = await app.request(
      '/tools/api/subset',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ source, text: '永和九年', formats: ['woff2'] }),
      },
      { clientAddress: '10.9.2.3' },
    );
    const smallId = ((await small.json()) as { data: { jobId: string } }).data.jobId;
    const ids = [long.body.data.jobId, longToo.body.data.jobId, smallId];
    startJobRunner();
    for (const id of ids) expect((await waitForJob(app, id)).state).toBe('done');
    const rows = await library.db.select().from(jobs).where(inArray(jobs.id, ids));
    const row = (id: string) => rows.find((candidate) => candidate.id === id);
    const at = (date: Date | null | undefined) => date?.getTime() ?? Number.NaN;
    // One job worker: the first long job takes it, and the small one its own place at once, while
    // the second long job (queued before it, from a client never served) waits for the worker.
    expect(at(row(smallId)?.startedAt)).toBeLessThan(at(row(long.body.data.jobId)?.finishedAt));
    expect(at(row(smallId)?.startedAt)).toBeLessThan(at(row(longToo.body.data.jobId)?.startedAt));
    expect(at(row(longToo.body.data.jobId)?.startedAt)).toBeGreaterThanOrEqual(
      at(row(long.body.data.jobId)?.finishedAt),
    );
  });

  test('a job is a database row: another app instance reads it, and a job lost a second time is failed', async () => {
    const started = await start({ source, formats: ['woff'] }, '10.9.1.1');
    await waitForJob(app, started.body.data.jobId);
    const elsewhere = await createApp().request(`/tools/api/jobs/${started.body.data.jobId}`);
    expect(((await elsewhere.json()) as { data: JobAnswer }).data.state).toBe('done');

    // A job a killed process was running, on its second try: it stopped being touched five minutes ago.
    const [orphan] = await library.db
      .insert(jobs)
      .values({
        task: 1,
        status: 'running',
        progress: 40,
        step: '正在生成 WOFF2',
        owner: 'ip:killed',
        attempts: 2,
        expiresAt: new Date(Date.now() + 60 * 60_000),
        heartbeatAt: new Date(Date.now() - 5 * 60_000),
      })
      .returning();
    await sweepToolFiles();
    const res = await createApp().request(`/tools/api/jobs/${orphan?.id}`);
    const job = ((await res.json()) as { data: JobAnswer }).data;
    expect(job.state).toBe('failed');
    expect(job.error).toBe('处理中断，请重新提交');
    const [row] = await library.db
      .select()
      .from(jobs)
      .where(eq(jobs.id, orphan?.id ?? ''));
    expect(row?.finishedAt).toBeInstanceOf(Date);
  });

  test('an unknown or malformed job id answers 404', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      expect((await app.request(`/tools/api/jobs/${id}`)).status).toBe(404);
    }
  });
});
