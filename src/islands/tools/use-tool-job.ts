// The run of one tool job as page state: start it, follow its progress, keep its result or error.
import { useEffect, useRef, useState } from 'react';
import type { JobResult, JobView } from '../../lib/tools-types.ts';
import { showToast } from '../../stores/toast.ts';
import { isAbort, messageOf } from './picked-font.ts';
import { waitForJob } from './wait-for-job.ts';

/** Where a run stands. */
export type JobPhase = 'idle' | 'working' | 'done' | 'failed';

/** State and controls of {@link useToolJob}. */
export interface ToolJob {
  phase: JobPhase;
  /** The latest polled state, while working. */
  job: JobView | undefined;
  result: JobResult | null;
  error: string;
  /** When the run began (performance.now()), for the time spent. */
  startedAt: number | undefined;
  /** Starts a job with `start` (which answers its id) and follows it to the end. */
  run: (start: () => Promise<{ jobId: string }>, doneMessage: string) => Promise<void>;
  /** Forgets the last result, e.g. when the font changes. */
  reset: () => void;
}

/**
 * Runs tool jobs one at a time. Errors end up inline (`error`) and as a toast: the start call's
 * client shows its own toast, so only later failures (the job's own error) are toasted here.
 */
export function useToolJob(): ToolJob {
  const [phase, setPhase] = useState<JobPhase>('idle');
  const [job, setJob] = useState<JobView | undefined>();
  const [result, setResult] = useState<JobResult | null>(null);
  const [error, setError] = useState('');
  const [startedAt, setStartedAt] = useState<number | undefined>();
  const controller = useRef<AbortController | null>(null);

  useEffect(() => () => controller.current?.abort(), []);

  function reset(): void {
    controller.current?.abort();
    controller.current = null;
    setPhase('idle');
    setJob(undefined);
    setResult(null);
    setError('');
  }

  async function run(start: () => Promise<{ jobId: string }>, doneMessage: string): Promise<void> {
    reset();
    const current = new AbortController();
    controller.current = current;
    setPhase('working');
    setStartedAt(performance.now());
    let started = false;
    try {
      const { jobId } = await start();
      started = true;
      const finished = await waitForJob(jobId, setJob, current.signal);
      if (current.signal.aborted) return;
      setResult(finished);
      setPhase('done');
      showToast(doneMessage, 'success');
    } catch (failure) {
      if (isAbort(failure) || current.signal.aborted) return;
      const message = messageOf(failure, '处理失败，请稍后再试');
      setError(message);
      setPhase('failed');
      if (started) showToast(message, 'error');
    }
  }

  return { phase, job, result, error, startedAt, run, reset };
}

/** The status line of a running job. */
export function jobStatus(job: JobView | undefined, working: string): string {
  if (!job) return '正在提交…';
  if (job.state === 'queued') return '排队中，马上开始…';
  return job.step || working;
}

/**
 * Moves focus to a finished result's heading, so keyboard and screen-reader users land on it, and
 * scrolls only as far as needed (beside the form on wide screens it is already in view).
 */
export function revealResult(heading: HTMLElement | null): void {
  if (!heading) return;
  heading.focus({ preventScroll: true });
  heading.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
}
