import { randomBytes, randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { ZipArchive } from 'archiver';
import type { JobExtras, JobFile, JobResult, JobView } from '../../lib/tools-types.ts';
import { FORMAT_INFO } from '../engine/font-format.ts';
import { ApiError, notFound } from '../http/envelope.ts';
import { log } from '../log.ts';
import { storage } from '../storage/index.ts';
import { ToolTaskError } from './pool.ts';
import { toolsTtlMs } from './runtime.ts';
import type { TaskFile } from './tasks.ts';

// Converter and subset jobs. A job lives in this process's memory while it runs and until it
// expires; its outputs live in storage under tools/outputs/<token>/ with a manifest.json, so the
// download links work from any process that shares the storage, until the sweeper removes them.

/** Where job outputs live in storage. */
export const OUTPUTS_PREFIX = 'tools/outputs';

interface Job extends JobView {
  expires: number;
}

/** The manifest of one job's outputs: download name → storage key. */
interface Manifest {
  expiresAt: string;
  files: Array<{ name: string; key: string; mime: string }>;
}

/** Jobs waiting or running at once; beyond it new jobs are refused until some finish. */
const MAX_ACTIVE_JOBS = 24;
const jobs = new Map<string, Job>();

const manifestKey = (token: string) => `${OUTPUTS_PREFIX}/${token}/manifest.json`;
const fileUrl = (token: string, name: string) => `/tools/api/files/${token}/${encodeURIComponent(name)}`;

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

/**
 * Starts a job: `work` runs the task (in the tools pool) and reports progress; when it succeeds
 * the outputs get download names (`<stem>.<ext>`) and, when there are several, a zip.
 */
export function startJob(
  stem: string,
  work: (token: string, progress: (progress: number, step: string) => void) => Promise<JobOutput>,
): JobView {
  const active = [...jobs.values()].filter((job) => job.state === 'queued' || job.state === 'running').length;
  if (active >= MAX_ACTIVE_JOBS) throw new ApiError(503, '503', '当前排队的任务太多，请过几分钟再试');
  const expires = Date.now() + toolsTtlMs();
  const job: Job = {
    jobId: randomUUID(),
    state: 'queued',
    progress: 0,
    step: '排队中',
    expires,
    expiresAt: new Date(expires).toISOString(),
  };
  jobs.set(job.jobId, job);
  const token = randomBytes(16).toString('hex');
  const progress = (value: number, step: string) => {
    job.state = 'running';
    job.progress = Math.max(job.progress, Math.min(0.99, Math.round(value * 100) / 100));
    job.step = step;
  };
  void (async () => {
    try {
      const output = await work(token, progress);
      job.result = await publish(token, stem, output, job, progress);
      job.state = 'done';
      job.progress = 1;
      job.step = '已完成';
    } catch (error) {
      job.state = 'failed';
      job.step = '失败';
      if (error instanceof ToolTaskError && error.userFacing) {
        job.error = error.message;
      } else {
        log().error({ err: error, jobId: job.jobId }, 'tool job failed');
        job.error = '处理失败：字体数据有误或暂不支持，请换一个字体文件再试';
      }
      await storage()
        .deleteTree(`${OUTPUTS_PREFIX}/${token}`)
        .catch(() => {});
    }
  })();
  return view(job);
}

async function publish(
  token: string,
  stem: string,
  output: JobOutput,
  job: Job,
  progress: (progress: number, step: string) => void,
): Promise<JobResult> {
  const used = new Set<string>();
  const manifest: Manifest = { expiresAt: job.expiresAt, files: [] };
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

function view(job: Job): JobView {
  const { jobId, state, progress, step, error, result, expiresAt } = job;
  return {
    jobId,
    state,
    progress,
    step,
    expiresAt,
    ...(error === undefined ? {} : { error }),
    ...(result === undefined ? {} : { result }),
  };
}

/** A job's state, or 404 when it never existed or has expired. */
export function findJob(jobId: string): JobView {
  const job = jobs.get(jobId);
  if (!job || job.expires <= Date.now()) throw notFound('任务不存在或已过期，请重新提交');
  return view(job);
}

/** Forgets expired jobs (their files are removed by the sweeper). */
export function forgetExpiredJobs(now = Date.now()): number {
  let forgotten = 0;
  for (const [id, job] of jobs) {
    if (job.expires <= now && job.state !== 'queued' && job.state !== 'running') {
      jobs.delete(id);
      forgotten++;
    }
  }
  return forgotten;
}

/** An output file for download: its bytes, MIME type and size; 404 when unknown or expired. */
export async function openJobFile(token: string, name: string) {
  const gone = () => notFound('文件不存在或已过期，请重新转换');
  if (!/^[0-9a-f]{32}$/.test(token)) throw gone();
  const object = await storage().get(manifestKey(token));
  if (!object) throw gone();
  const manifest = JSON.parse((await buffer(object.body)).toString('utf8')) as Manifest;
  if (Date.parse(manifest.expiresAt) <= Date.now()) throw gone();
  const entry = manifest.files.find((file) => file.name === name);
  if (!entry) throw gone();
  const file = await storage().get(entry.key);
  if (!file) throw gone();
  return { name: entry.name, mime: entry.mime, size: file.size, body: file.body };
}
