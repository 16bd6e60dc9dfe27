import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import { systemClock } from '../auth/clock.ts';
import { createSharedLimiter } from '../auth/shared-limiter.ts';
import { db } from '../db/client.ts';
import { jobs } from '../db/schema/index.ts';
import { ApiError, tooManyRequests } from '../http/envelope.ts';
import type { ToolClient } from './clients.ts';

// The tools are shared by everyone, so no one client may hold more than its share: a few jobs at a
// time, a rate of new jobs and uploads, and a quota of temporary outputs. The runners then claim
// the queued jobs of clients in turn (runner.ts, claimJob), so a flood from one address waits
// behind itself. The converter, subset and pixel font queue their jobs through enqueueJob
// (jobs.ts), which applies these rules. The job counts are read from the database and the rates
// are counted there (rate_counters), so all of them hold across nodes.

/** Jobs one client may have waiting or running at once. */
export const JOBS_AT_ONCE_PER_CLIENT = 2;
/** New jobs one client may start in ten minutes. */
export const JOBS_PER_TEN_MINUTES = 30;
/** Uploads one client may make in ten minutes. */
export const UPLOADS_PER_TEN_MINUTES = 30;
/** Bytes of temporary outputs one client may hold until they expire. */
export const OUTPUT_QUOTA_BYTES = 500 << 20;
/** Pictures one client may have read (glyphs found, boxes read again) in a minute. */
export const IDENTIFY_READS_PER_MINUTE = 60;
/** Comparisons with the library one client may ask for in a minute. */
export const IDENTIFY_MATCHES_PER_MINUTE = 20;
/** Jobs waiting or running on the whole site; beyond it new jobs are refused (503). */
export const MAX_ACTIVE_JOBS = 24;

const TEN_MINUTES = 10 * 60_000;
const jobRate = createSharedLimiter({
  name: 'tools-jobs',
  limit: JOBS_PER_TEN_MINUTES,
  windowMs: TEN_MINUTES,
  clock: systemClock,
});
const uploadRate = createSharedLimiter({
  name: 'tools-uploads',
  limit: UPLOADS_PER_TEN_MINUTES,
  windowMs: TEN_MINUTES,
  clock: systemClock,
});

// Identification answers at once from the process's one identification worker: without a rate, one
// client asking without pause would keep it from everyone else.
const identifyReadRate = createSharedLimiter({
  name: 'identify-reads',
  limit: IDENTIFY_READS_PER_MINUTE,
  windowMs: 60_000,
  clock: systemClock,
});
const identifyMatchRate = createSharedLimiter({
  name: 'identify-matches',
  limit: IDENTIFY_MATCHES_PER_MINUTE,
  windowMs: 60_000,
  clock: systemClock,
});

/** How long to wait, said the way a person reads it: 「45 秒」, 「3 分钟」. */
export function waitText(seconds: number): string {
  const whole = Math.max(1, Math.ceil(seconds));
  return whole < 90 ? `${whole} 秒` : `${Math.ceil(whole / 60)} 分钟`;
}

const ACTIVE = ['queued', 'running'] as const;

// The job requests of one client that this process is admitting, chained: see inTurn.
const admitting = new Map<string, Promise<unknown>>();

/**
 * Runs one client's job request after that client's earlier ones on this process have been
 * admitted or refused. A burst of forty requests from one address is then taken one at a time: the
 * third and later each cost one query (refuseBusyClient) and wait behind their own client's, while
 * other clients' requests go on beside them instead of queueing behind forty font lookups.
 */
export function inTurn<T>(client: ToolClient, work: () => Promise<T>): Promise<T> {
  const previous = admitting.get(client.key) ?? Promise.resolve();
  const mine = previous.then(work, work);
  const settled = mine.catch(() => undefined);
  admitting.set(client.key, settled);
  void settled.then(() => {
    if (admitting.get(client.key) === settled) admitting.delete(client.key);
  });
  return mine;
}

/**
 * Refuses at once (429) a client that already has its jobs waiting or running, with one query and
 * before its request names a font to look up: a flood from one address is answered at the least
 * cost to everyone else (admitJob checks the same again when the job is queued).
 */
export async function refuseBusyClient(client: ToolClient): Promise<void> {
  const [mine] = await (await db())
    .select({ active: sql<number>`count(*)::int` })
    .from(jobs)
    .where(and(eq(jobs.owner, client.key), inArray(jobs.status, [...ACTIVE])));
  if ((mine?.active ?? 0) >= JOBS_AT_ONCE_PER_CLIENT) throw busyClient();
}

const busyClient = () => tooManyRequests(15, `你已有 ${JOBS_AT_ONCE_PER_CLIENT} 个任务正在处理，请等它们完成后再提交`);

/** Refuses a new job (429 or 503 with Retry-After) when the client or the site is at its limit. */
export async function admitJob(client: ToolClient, now = new Date()): Promise<void> {
  const handle = await db();
  const [mine] = await handle
    .select({
      active: sql<number>`count(*) filter (where ${jobs.status} in ('queued', 'running'))::int`,
      bytes: sql<number>`coalesce(sum(${jobs.bytes}) filter (where ${jobs.expiresAt} > ${now}), 0)::bigint`,
    })
    .from(jobs)
    .where(eq(jobs.owner, client.key));
  if ((mine?.active ?? 0) >= JOBS_AT_ONCE_PER_CLIENT) throw busyClient();
  if (Number(mine?.bytes ?? 0) >= OUTPUT_QUOTA_BYTES) {
    throw tooManyRequests(
      600,
      `你的临时文件已达 ${OUTPUT_QUOTA_BYTES >> 20} MB 上限，请先下载需要的文件，过期后会自动清理再继续`,
    );
  }
  const [site] = await handle
    .select({ active: sql<number>`count(*)::int` })
    .from(jobs)
    .where(and(inArray(jobs.status, [...ACTIVE]), gt(jobs.expiresAt, now)));
  if ((site?.active ?? 0) >= MAX_ACTIVE_JOBS) {
    throw new ApiError(503, '503', '当前排队的任务太多，请过几分钟再试', { 'Retry-After': '60' });
  }
  const verdict = await jobRate.hit(client.key);
  if (!verdict.allowed) {
    throw tooManyRequests(verdict.retryAfter, `提交任务太频繁，请 ${waitText(verdict.retryAfter)}后再试`);
  }
}

/** Refuses an upload past the client's rate (429 with Retry-After). */
export async function admitUpload(client: ToolClient): Promise<void> {
  const verdict = await uploadRate.hit(client.key);
  if (!verdict.allowed)
    throw tooManyRequests(verdict.retryAfter, `上传太频繁，请 ${waitText(verdict.retryAfter)}后再试`);
}

/** Refuses finding or reading glyphs past the client's rate (429 with Retry-After). */
export async function admitIdentifyRead(client: ToolClient): Promise<void> {
  const verdict = await identifyReadRate.hit(client.key);
  if (!verdict.allowed) {
    throw tooManyRequests(verdict.retryAfter, `识别文字太频繁，请 ${waitText(verdict.retryAfter)}后再试`);
  }
}

/** Refuses a comparison with the library past the client's rate (429 with Retry-After). */
export async function admitIdentifyMatch(client: ToolClient): Promise<void> {
  const verdict = await identifyMatchRate.hit(client.key);
  if (!verdict.allowed) {
    throw tooManyRequests(verdict.retryAfter, `比对字体太频繁，请 ${waitText(verdict.retryAfter)}后再试`);
  }
}
