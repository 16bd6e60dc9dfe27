// Polls a tool job until it ends, so the page can draw its progress.
import { getJob } from '../../api/font-tools.ts';
import { RequestError } from '../../api/http.ts';
import type { JobResult, JobView } from '../../lib/tools-types.ts';

/** First wait between polls; quick jobs (a small font) then finish before anyone notices. */
const FIRST_DELAY_MS = 400;
/** Longest wait between polls, reached by backing off while a large font is worked on. */
const MAX_DELAY_MS = 2000;
/** Failed reads in a row after which the job is given up on (the server or the network is gone). */
const MAX_FAILED_READS = 5;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new DOMException('已取消', 'AbortError'));
      },
      { once: true },
    );
  });

/**
 * Reads the job every 400 ms, backing off to 2 s, and hands each state to `onUpdate`. Resolves with
 * the result when the job is done; rejects with the job's Chinese error when it failed, or when the
 * job cannot be read five times in a row.
 */
export async function waitForJob(
  jobId: string,
  onUpdate: (job: JobView) => void,
  signal?: AbortSignal,
): Promise<JobResult> {
  let delay = FIRST_DELAY_MS;
  let failedReads = 0;
  for (;;) {
    let job: JobView;
    try {
      job = await getJob(jobId, signal);
      failedReads = 0;
    } catch (error) {
      if (signal?.aborted) throw error;
      // Jobs live for a while only; a server restart forgets them too.
      if (error instanceof RequestError && error.status === 404) throw new Error('任务不存在或已过期，请重新提交');
      failedReads++;
      if (failedReads >= MAX_FAILED_READS) throw error;
      await sleep(delay, signal);
      continue;
    }
    onUpdate(job);
    if (job.state === 'done') return job.result ?? { files: [] };
    if (job.state === 'failed') throw new Error(job.error || '处理失败，请换一个字体文件再试');
    await sleep(delay, signal);
    delay = Math.min(MAX_DELAY_MS, Math.round(delay * 1.3));
  }
}
