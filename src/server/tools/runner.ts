import { and, eq, sql } from 'drizzle-orm';
import { clusterBus } from '../cluster/bus.ts';
import type { Db } from '../db/client.ts';
import { db } from '../db/client.ts';
import { jobs } from '../db/schema/index.ts';
import { log } from '../log.ts';
import { storage } from '../storage/index.ts';
import { JOB_KINDS } from './job-kinds.ts';
import {
  JOBS_CHANNEL,
  type JobKind,
  type JobRow,
  OUTPUTS_PREFIX,
  publishJob,
  type QueuedInput,
  STALE_MS,
  settleJobs,
  wakeRunners,
} from './jobs.ts';
import { ToolTaskError } from './pool.ts';
import { toolsJobWorkers } from './runtime.ts';
import type { Progress } from './task-types.ts';

// Job runners: each process that runs jobs (a web node unless TOOLS_RUN_JOBS=false, or
// `npm run worker`) claims queued jobs from the database as its tools pool has room, runs them
// there and touches their rows while they run. Runners are woken by the bus (a NOTIFY on
// PostgreSQL, in memory on PGlite) and poll now and then in case a message was missed.

/** A running job is touched this often; one untouched for STALE_MS lost its runner. */
const HEARTBEAT_MS = 30_000;
/** Progress is written at most this often (and whenever the step changes). */
const PROGRESS_WRITE_MS = 200;
/** Runners look for queued jobs this often even when no message came. */
const POLL_MS = 5_000;
/** Runners look for jobs whose runner was lost this often. */
const SETTLE_MS = 30_000;

/**
 * Claims the next queued job: the one of the client served longest ago (whose latest job started
 * earliest, or never), oldest first among them, so that clients take turns across every node.
 * `FOR UPDATE SKIP LOCKED` lets runners claim at once without waiting on or taking each other's job.
 * With `smallOnly`, only a small job is taken (the small lane, see JobSize in jobs.ts).
 */
export async function claimJob(handle: Db, now = new Date(), smallOnly = false): Promise<JobRow | undefined> {
  const lane = smallOnly ? sql`and j.input->>'size' = 'small'` : sql``;
  const [row] = await handle
    .update(jobs)
    .set({
      status: 'running',
      attempts: sql`${jobs.attempts} + 1`,
      step: '正在开始',
      stepIndeterminate: false,
      heartbeatAt: now,
      startedAt: now,
    })
    .where(
      eq(
        jobs.id,
        sql`(select j.id from ${jobs} j where j.status = 'queued' ${lane}
              order by (select max(r.started_at) from ${jobs} r where r.owner = j.owner) nulls first, j.created_at
              for update skip locked limit 1)`,
      ),
    )
    .returning();
  return row;
}

/**
 * Runs a claimed job to its end. Every write is tied to this claim (the attempt number), so a
 * runner that was thought lost, and whose job was queued again, no longer changes the row.
 * `kinds` are the kinds of job it knows (tests give their own).
 */
export async function runClaimedJob(
  handle: Db,
  row: JobRow,
  kinds: Readonly<Record<string, JobKind<never>>> = JOB_KINDS,
): Promise<void> {
  const input = row.input as QueuedInput;
  const lane = input.size === 'small' ? 'small' : 'job';
  const attemptPrefix = `${OUTPUTS_PREFIX}/${input.token}/${row.attempts}`;
  const mine = and(eq(jobs.id, row.id), eq(jobs.status, 'running'), eq(jobs.attempts, row.attempts));
  // Writes are chained so they land in order; the latest progress wins when they come fast.
  let writes: Promise<unknown> = Promise.resolve();
  const write = (values: Partial<typeof jobs.$inferInsert>) => {
    writes = writes
      .then(() =>
        handle
          .update(jobs)
          .set({ ...values, heartbeatAt: new Date() })
          .where(mine),
      )
      .catch((error: unknown) => log().error({ err: error, jobId: row.id }, 'job state not written'));
    return writes;
  };
  let percent = 0;
  let lastStep = '';
  let lastIndeterminate = false;
  let lastWrite = 0;
  const progress: Progress = (value, step, options) => {
    percent = Math.max(percent, Math.min(99, Math.round(value * 100)));
    const indeterminate = options?.indeterminate ?? false;
    const now = Date.now();
    const changed = step !== lastStep || indeterminate !== lastIndeterminate;
    if (!changed && now - lastWrite < PROGRESS_WRITE_MS) return;
    lastWrite = now;
    lastIndeterminate = indeterminate;
    lastStep = step;
    void write({ progress: percent, step, stepIndeterminate: indeterminate });
  };
  const heartbeat = setInterval(() => void write({}), HEARTBEAT_MS);
  heartbeat.unref();
  try {
    const kind = kinds[input.kind];
    if (!kind) throw new Error(`unknown job kind: ${input.kind}`);
    const output = await kind.run(input.params as never, {
      // Each attempt writes its own folder: a runner thought lost must not remove its successor's files.
      outPrefix: attemptPrefix,
      progress,
      client: row.owner,
      lane,
    });
    const result = await publishJob(input, output, row.expiresAt ?? new Date(), progress);
    const bytes = output.files.reduce((sum, file) => sum + file.size, 0);
    await write({
      status: 'done',
      progress: 100,
      step: '已完成',
      stepIndeterminate: false,
      result,
      bytes,
      finishedAt: new Date(),
    });
  } catch (error) {
    let message = '处理失败：字体数据有误或暂不支持，请换一个字体文件再试';
    if (error instanceof ToolTaskError && error.userFacing) message = error.message;
    else log().error({ err: error, jobId: row.id }, 'tool job failed');
    await storage()
      .deleteTree(attemptPrefix)
      .catch(() => {});
    await write({ status: 'failed', step: '失败', stepIndeterminate: false, error: message, finishedAt: new Date() });
  } finally {
    clearInterval(heartbeat);
  }
}

/** Small jobs a runner takes on top of its capacity, so that they never wait behind long ones. */
const SMALL_LANE = 1;

/**
 * A runner: claims jobs while it has room for them, until stopped. It has `capacity` places for any
 * job (the pool's job workers) and one more for small jobs only: a small subset starts at once even
 * while every place runs another client's long conversion.
 */
export class JobRunner {
  readonly #capacity: number;
  readonly #handle: () => Promise<Db>;
  /** The rows of the jobs it runs, by id. */
  readonly #running = new Map<string, JobRow>();
  /** The ids of those running in the small lane's place. */
  readonly #small = new Set<string>();
  #claiming = false;
  #again = false;
  #stopped = true;
  #timers: NodeJS.Timeout[] = [];
  #unlisten: (() => Promise<void>) | undefined;

  constructor(options: { capacity?: number; handle?: () => Promise<Db> } = {}) {
    this.#capacity = Math.max(1, options.capacity ?? toolsJobWorkers());
    this.#handle = options.handle ?? db;
  }

  /** Listens for queued jobs, then claims what waits already. */
  async start(): Promise<void> {
    if (!this.#stopped) return;
    this.#stopped = false;
    const poll = setInterval(() => this.wake(), POLL_MS);
    const settle = setInterval(
      () => void settleJobs().catch((error: unknown) => log().error({ err: error }, 'lost jobs not settled')),
      Math.min(SETTLE_MS, STALE_MS / 2),
    );
    for (const timer of [poll, settle]) timer.unref();
    this.#timers = [poll, settle];
    // Without the bus (the database is unreachable for now) the runner still polls.
    this.#unlisten = await clusterBus()
      .listen(JOBS_CHANNEL, () => this.wake())
      .catch((error: unknown) => {
        log().error({ err: error }, 'job runner not woken by messages; it polls');
        return undefined;
      });
    this.wake();
  }

  /** Claims queued jobs while there is room; a call during a claim round makes another round. */
  wake(): void {
    if (this.#stopped) return;
    if (this.#claiming) {
      this.#again = true;
      return;
    }
    this.#claiming = true;
    void this.#claimRound()
      .catch((error: unknown) => log().error({ err: error }, 'jobs not claimed'))
      .finally(() => {
        this.#claiming = false;
        if (this.#again) {
          this.#again = false;
          this.wake();
        }
      });
  }

  async #claimRound(): Promise<void> {
    const handle = await this.#handle();
    while (!this.#stopped) {
      const general = this.#running.size - this.#small.size < this.#capacity;
      if (!general && this.#small.size >= SMALL_LANE) return;
      const row = await claimJob(handle, new Date(), !general);
      if (!row) return;
      this.#running.set(row.id, row);
      if (!general) this.#small.add(row.id);
      void runClaimedJob(handle, row).finally(() => {
        this.#running.delete(row.id);
        this.#small.delete(row.id);
        this.wake();
      });
    }
  }

  /**
   * Stops claiming and hands the jobs it runs back to the queue without counting the attempt, for
   * another runner to take at once (a shutdown is not a lost runner). Their late writes from here
   * no longer match the row and change nothing.
   */
  async stop(): Promise<void> {
    this.#stopped = true;
    for (const timer of this.#timers) clearInterval(timer);
    this.#timers = [];
    await this.#unlisten?.();
    this.#unlisten = undefined;
    const rows = [...this.#running.values()];
    this.#running.clear();
    this.#small.clear();
    if (rows.length === 0) return;
    const handle = await this.#handle();
    for (const row of rows) {
      await handle
        .update(jobs)
        .set({ status: 'queued', progress: 0, step: '排队中', attempts: row.attempts - 1, heartbeatAt: new Date() })
        .where(and(eq(jobs.id, row.id), eq(jobs.status, 'running'), eq(jobs.attempts, row.attempts)));
    }
    await wakeRunners();
  }
}

// On globalThis like the database: the page bundle and the scripts load this module apart.
const SLOT = Symbol.for('font-alliance.job-runner');
type Slot = { [SLOT]?: JobRunner };

/** Starts this process's job runner (once; later calls do nothing). */
export function startJobRunner(): void {
  const slot = globalThis as Slot;
  if (slot[SLOT]) return;
  const runner = new JobRunner();
  slot[SLOT] = runner;
  void runner.start().catch((error: unknown) => log().error({ err: error }, 'job runner not started'));
}

/** Stops this process's job runner, handing its running jobs back to the queue (shutdown and tests). */
export async function stopJobRunner(): Promise<void> {
  const slot = globalThis as Slot;
  const runner = slot[SLOT];
  delete slot[SLOT];
  await runner?.stop();
}
