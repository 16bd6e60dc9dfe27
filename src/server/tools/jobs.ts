import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { ZipArchive } from 'archiver';
import { and, eq, gte, lt, notInArray } from 'drizzle-orm';
import type { JobExtras, JobFile, JobResult, JobView } from '../../lib/tools-types.ts';
import { clusterBus } from '../cluster/bus.ts';
import { db } from '../db/client.ts';
import { jobs } from '../db/schema/index.ts';
import { FORMAT_INFO } from '../engine/font-format.ts';
import { notFound } from '../http/envelope.ts';
import { log } from '../log.ts';
import { storage } from '../storage/index.ts';
import { SITE_CLIENT } from './clients.ts';
import { admitJob } from './limits.ts';
import { toolsTtlMs } from './runtime.ts';
import type { Progress, TaskFile } from './task-types.ts';

// Tool jobs. A job is a row of the `jobs` table, written `queued` with everything needed to run it;
// a runner on any node claims it (runner.ts) and writes its state, progress and step as it goes,
// and any request reads the row, so a job is found after a restart or on another node. Its outputs
// live in storage under tools/outputs/<token>/ with a manifest.json, so the download links work
// from any process that shares the storage, until the sweeper removes them. A job whose runner
// died stops being touched: it is queued again once, then failed.

/** Where job outputs live in storage. */
export const OUTPUTS_PREFIX = 'tools/outputs';

/** The manifest of one job's outputs: download name → storage key. */
interface Manifest {
  expiresAt: string;
  files: Array<{ name: string; key: string; mime: string }>;
}

const manifestKey = (token: string) => `${OUTPUTS_PREFIX}/${token}/manifest.json`;
const fileUrl = (token: string, name: string) => `/tools/api/files/${token}/${encodeURIComponent(name)}`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A file name safe to offer for download: no path separators, quotes or control characters. */
export function safeFileStem(name: string, fallback = 'font'): string {
  const stem = [...name.replace(/\.[A-Za-z0-9]{2,5}$/, '')]
    .map((ch) => (ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f || '\\/:*?"<>|\'`'.includes(ch) ? '_' : ch))
    .join('')
    .trim()
    .slice(0, 80);
  return stem || fallback;
}

/** What a job's task hands back for publishing: the files it wrote and anything else to show. */
export interface JobOutput {
  files: TaskFile[];
  extra?: JobExtras;
  /** Adds to the result once the file URLs are known (the subset CSS names them). */
  finish?: (files: JobFile[]) => JobExtras;
}

/** A row of the jobs table. */
export type JobRow = typeof jobs.$inferSelect;

function view(row: JobRow): JobView {
  const result = row.result as JobResult | null;
  return {
    jobId: row.id,
    state: row.status,
    progress: row.progress / 100,
    step: row.step,
    ...(row.status === 'running' && row.stepIndeterminate ? { indeterminate: true } : {}),
    expiresAt: (row.expiresAt ?? new Date()).toISOString(),
    ...(row.error === null ? {} : { error: row.error }),
    ...(result === null || result === undefined ? {} : { result }),
  };
}

/**
 * How long a job is expected to take, chosen from its parameters when it is queued: a small job (a
 * subset of a few hundred characters) has a lane of its own in every runner and in the pool, so it
 * never waits behind another client's long conversion.
 */
export type JobSize = 'small' | 'long';

/** What a running job is given: where to write its outputs, how to report progress, whose it is. */
export interface JobContext {
  /** The storage folder of the job's outputs (tools/outputs/<token>/<attempt>). */
  outPrefix: string;
  progress: Progress;
  /** The client key (clients.ts), so the pool serves clients in turn. */
  client: string;
  /** The pool lane the job's work runs in: 'small' for small jobs, 'job' for the rest. */
  lane: 'job' | 'small';
}

/**
 * A kind of job: its name in the queued row, its task number (jobs schema) and how to run it from
 * its parameters. The parameters are stored as JSON and name fonts by storage key, so a runner on
 * any node that shares the database and the storage can run the job.
 */
export interface JobKind<P> {
  name: string;
  task: number;
  run(params: P, context: JobContext): Promise<JobOutput>;
  /** Whether a job with these parameters is small (see JobSize); long when the kind does not say. */
  sizeOf?(params: P): JobSize;
}

/** The `input` of a queued job row. */
export interface QueuedInput {
  kind: string;
  /** Download name stem of the outputs. */
  stem: string;
  /** Names the job's outputs folder and download links (hard to guess, unlike the job id). */
  token: string;
  params: unknown;
  /** Rows written before sizes existed have none: they are long. */
  size?: JobSize;
}

/** The bus channel that wakes the job runners when a job is queued or put back. */
export const JOBS_CHANNEL = 'tool_jobs';

/**
 * Queues a job for `client` after the per-client and site limits (limits.ts): the row holds
 * everything needed to run it, and the runners (runner.ts) are woken on every node.
 */
export async function enqueueJob<P>(kind: JobKind<P>, stem: string, params: P, client = SITE_CLIENT): Promise<JobView> {
  await admitJob(client);
  const input: QueuedInput = {
    kind: kind.name,
    stem,
    token: randomBytes(16).toString('hex'),
    params,
    size: kind.sizeOf?.(params) ?? 'long',
  };
  const [row] = await (await db())
    .insert(jobs)
    .values({
      task: kind.task,
      status: 'queued',
      step: '排队中',
      input,
      owner: client.key,
      accountId: client.accountId,
      expiresAt: new Date(Date.now() + toolsTtlMs()),
    })
    .returning();
  if (!row) throw new Error('job row not written');
  await wakeRunners();
  return view(row);
}

/** Tells the runners on every node that a job waits. */
export async function wakeRunners(): Promise<void> {
  await clusterBus()
    .notify(JOBS_CHANNEL, '')
    .catch((error: unknown) => log().warn({ err: error }, 'job runners not woken; they poll'));
}

/** Makes the outputs of a finished job downloadable: names, a zip when there are several, the manifest. */
export async function publishJob(
  input: QueuedInput,
  output: JobOutput,
  expiresAt: Date,
  progress: Progress,
): Promise<JobResult> {
  return publish(input.token, input.stem, output, expiresAt, progress);
}

async function publish(
  token: string,
  stem: string,
  output: JobOutput,
  expiresAt: Date,
  progress: Progress,
): Promise<JobResult> {
  const used = new Set<string>();
  const manifest: Manifest = { expiresAt: expiresAt.toISOString(), files: [] };
  const files: JobFile[] = output.files.map((file) => {
    const ext = FORMAT_INFO[file.format].ext;
    let name = `${stem}.${ext}`;
    for (let n = 2; used.has(name); n++) name = `${stem}-${n}.${ext}`;
    used.add(name);
    manifest.files.push({ name, key: file.key, mime: FORMAT_INFO[file.format].mime });
    return { format: file.format, name, size: file.size, url: fileUrl(token, name) };
  });
  const result: JobResult = { files, ...output.extra, ...output.finish?.(files) };
  if (files.length > 1) {
    progress(0.97, '正在打包 ZIP');
    const name = `${stem}.zip`;
    const key = `${OUTPUTS_PREFIX}/${token}/bundle.zip`;
    await storage().put(key, await zipOf(manifest.files), { durable: false });
    manifest.files.push({ name, key, mime: FORMAT_INFO.zip.mime });
    result.zipUrl = fileUrl(token, name);
  }
  await storage().put(manifestKey(token), Buffer.from(JSON.stringify(manifest)), { durable: false });
  return result;
}

/** A zip of stored files under their download names (fonts compress a little; WOFF2 not at all). */
async function zipOf(entries: Manifest['files']): Promise<Buffer> {
  const zip = new ZipArchive({ zlib: { level: 6 } });
  const out = new PassThrough();
  zip.pipe(out);
  const collected = buffer(out);
  for (const entry of entries) {
    const object = await storage().get(entry.key);
    if (!object) throw new Error(`job output missing: ${entry.key}`);
    zip.append(object.body, { name: entry.name, store: entry.name.endsWith('.woff2') || entry.name.endsWith('.woff') });
  }
  await zip.finalize();
  return collected;
}

/** A job's state, or 404 when it never existed or has expired. */
export async function findJob(jobId: string, now = new Date()): Promise<JobView> {
  const gone = () => notFound('任务不存在或已过期，请重新提交');
  if (!UUID.test(jobId)) throw gone();
  const [row] = await (await db()).select().from(jobs).where(eq(jobs.id, jobId)).limit(1);
  if (!row?.expiresAt || row.expiresAt <= now) throw gone();
  return view(row);
}

/** A running job not touched for this long lost its runner (killed, restarted or cut off). */
export const STALE_MS = 2 * 60_000;
/** A job is claimed at most this often: lost once it is queued again, lost twice it fails. */
export const MAX_ATTEMPTS = 2;

/**
 * Puts a job whose runner stopped touching it back in the queue (the first time) or fails it (the
 * second), fails queued jobs that waited past their expiry, and forgets expired finished jobs (the
 * sweeper removes their files); answers how many rows changed.
 */
export async function settleJobs(now = new Date()): Promise<number> {
  const handle = await db();
  const stale = and(eq(jobs.status, 'running'), lt(jobs.heartbeatAt, new Date(now.getTime() - STALE_MS)));
  const requeued = await handle
    .update(jobs)
    .set({ status: 'queued', progress: 0, step: '排队中', heartbeatAt: now })
    .where(and(stale, lt(jobs.attempts, MAX_ATTEMPTS)))
    .returning({ id: jobs.id });
  const failed = await handle
    .update(jobs)
    .set({ status: 'failed', step: '失败', error: '处理中断，请重新提交', finishedAt: now })
    .where(and(stale, gte(jobs.attempts, MAX_ATTEMPTS)))
    .returning({ id: jobs.id });
  const expired = await handle
    .update(jobs)
    .set({ status: 'failed', step: '失败', error: '排队时间过长，请重新提交', finishedAt: now })
    .where(and(eq(jobs.status, 'queued'), lt(jobs.expiresAt, now)))
    .returning({ id: jobs.id });
  const forgotten = await handle
    .delete(jobs)
    .where(and(notInArray(jobs.status, ['queued', 'running']), lt(jobs.expiresAt, now)))
    .returning({ id: jobs.id });
  if (requeued.length > 0) await wakeRunners();
  return requeued.length + failed.length + expired.length + forgotten.length;
}

/** An output file for download: its name, MIME type and storage key; 404 when unknown or expired. */
export async function findJobFile(token: string, name: string): Promise<{ name: string; mime: string; key: string }> {
  const gone = () => notFound('文件不存在或已过期，请重新转换');
  if (!/^[0-9a-f]{32}$/.test(token)) throw gone();
  const object = await storage().get(manifestKey(token));
  if (!object) throw gone();
  const manifest = JSON.parse((await buffer(object.body)).toString('utf8')) as Manifest;
  if (Date.parse(manifest.expiresAt) <= Date.now()) throw gone();
  const entry = manifest.files.find((file) => file.name === name);
  if (!entry) throw gone();
  return { name: entry.name, mime: entry.mime, key: entry.key };
}
