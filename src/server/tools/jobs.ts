import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { ZipArchive } from 'archiver';
import { and, eq, inArray, lt, notInArray } from 'drizzle-orm';
import type { JobExtras, JobFile, JobResult, JobView } from '../../lib/tools-types.ts';
import { db } from '../db/client.ts';
import { jobs, TOOL_TASKS } from '../db/schema/index.ts';
import { FORMAT_INFO } from '../engine/font-format.ts';
import { notFound } from '../http/envelope.ts';
import { log } from '../log.ts';
import { storage } from '../storage/index.ts';
import { SITE_CLIENT, type ToolClient } from './clients.ts';
import { admitJob } from './limits.ts';
import { ToolTaskError } from './pool.ts';
import { toolsTtlMs } from './runtime.ts';
import type { TaskFile } from './tasks.ts';

// Tool jobs. A job is a row of the `jobs` table: the process that runs it writes its state,
// progress and step as it goes, and any request reads the row, so a job is found after a restart
// or on another node. Its outputs live in storage under tools/outputs/<token>/ with a
// manifest.json, so the download links work from any process that shares the storage, until the
// sweeper removes them. A job whose process died stops being touched and is marked failed.

/** Where job outputs live in storage. */
export const OUTPUTS_PREFIX = 'tools/outputs';

/** The manifest of one job's outputs: download name → storage key. */
interface Manifest {
  expiresAt: string;
  files: Array<{ name: string; key: string; mime: string }>;
}

/** A job waiting or running is touched this often; one untouched for STALE_MS lost its process. */
const HEARTBEAT_MS = 30_000;
export const STALE_MS = 2 * 60_000;
/** Progress is written at most this often (and whenever the step changes). */
const PROGRESS_WRITE_MS = 200;

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

type JobRow = typeof jobs.$inferSelect;

function view(row: JobRow): JobView {
  const result = row.result as JobResult | null;
  return {
    jobId: row.id,
    state: row.status,
    progress: row.progress / 100,
    step: row.step,
    expiresAt: (row.expiresAt ?? new Date()).toISOString(),
    ...(row.error === null ? {} : { error: row.error }),
    ...(result === null || result === undefined ? {} : { result }),
  };
}

/**
 * Starts a job for `client` after the per-client and site limits (limits.ts): `work` runs the task
 * (in the tools pool) and reports progress; when it succeeds the outputs get download names
 * (`<stem>.<ext>`) and, when there are several, a zip. `task` is the job's number (jobs schema).
 */
export async function startJob(
  stem: string,
  work: (token: string, progress: (progress: number, step: string) => void, client: ToolClient) => Promise<JobOutput>,
  options: { client?: ToolClient; task?: number } = {},
): Promise<JobView> {
  const client = options.client ?? SITE_CLIENT;
  await admitJob(client);
  const handle = await db();
  const expiresAt = new Date(Date.now() + toolsTtlMs());
  const [row] = await handle
    .insert(jobs)
    .values({
      task: options.task ?? TOOL_TASKS.convert,
      status: 'queued',
      step: '排队中',
      input: { stem },
      owner: client.key,
      accountId: client.accountId,
      expiresAt,
    })
    .returning();
  if (!row) throw new Error('job row not written');
  const jobId = row.id;
  const token = randomBytes(16).toString('hex');

  // Writes are chained so they land in order; the latest progress wins when they come fast.
  let writes: Promise<unknown> = Promise.resolve();
  const write = (values: Partial<typeof jobs.$inferInsert>) => {
    writes = writes
      .then(() =>
        handle
          .update(jobs)
          .set({ ...values, heartbeatAt: new Date() })
          .where(eq(jobs.id, jobId)),
      )
      .catch((error: unknown) => log().error({ err: error, jobId }, 'job state not written'));
    return writes;
  };
  let percent = 0;
  let lastStep = '排队中';
  let lastWrite = 0;
  let started = false;
  const progress = (value: number, step: string) => {
    percent = Math.max(percent, Math.min(99, Math.round(value * 100)));
    const now = Date.now();
    if (step === lastStep && now - lastWrite < PROGRESS_WRITE_MS) return;
    lastStep = step;
    lastWrite = now;
    void write({ status: 'running', progress: percent, step, ...(started ? {} : { startedAt: new Date(now) }) });
    started = true;
  };
  const heartbeat = setInterval(() => void write({}), HEARTBEAT_MS);
  heartbeat.unref();

  void (async () => {
    try {
      const output = await work(token, progress, client);
      const result = await publish(token, stem, output, expiresAt, progress);
      const bytes = output.files.reduce((sum, file) => sum + file.size, 0);
      await write({ status: 'done', progress: 100, step: '已完成', result, bytes, finishedAt: new Date() });
    } catch (error) {
      let message = '处理失败：字体数据有误或暂不支持，请换一个字体文件再试';
      if (error instanceof ToolTaskError && error.userFacing) message = error.message;
      else log().error({ err: error, jobId }, 'tool job failed');
      await storage()
        .deleteTree(`${OUTPUTS_PREFIX}/${token}`)
        .catch(() => {});
      await write({ status: 'failed', step: '失败', error: message, finishedAt: new Date() });
    } finally {
      clearInterval(heartbeat);
    }
  })();
  return view(row);
}

async function publish(
  token: string,
  stem: string,
  output: JobOutput,
  expiresAt: Date,
  progress: (progress: number, step: string) => void,
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

/**
 * Forgets expired jobs (their files are removed by the sweeper) and fails jobs whose process
 * stopped touching them (it was killed or restarted); answers how many rows changed.
 */
export async function settleJobs(now = new Date()): Promise<number> {
  const handle = await db();
  const failed = await handle
    .update(jobs)
    .set({ status: 'failed', step: '失败', error: '处理被中断（服务器重启），请重新提交', finishedAt: now })
    .where(and(inArray(jobs.status, ['queued', 'running']), lt(jobs.heartbeatAt, new Date(now.getTime() - STALE_MS))))
    .returning({ id: jobs.id });
  const forgotten = await handle
    .delete(jobs)
    .where(and(notInArray(jobs.status, ['queued', 'running']), lt(jobs.expiresAt, now)))
    .returning({ id: jobs.id });
  return failed.length + forgotten.length;
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
