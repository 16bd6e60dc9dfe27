import { type ReactElement, type ReactNode, useEffect, useRef } from 'react';
import { ProgressBar } from './ProgressBar.tsx';
import { jobStatus, revealResult, type ToolJob } from './use-tool-job.ts';

interface Props {
  /** The heading's id, which names the section for assistive technology. */
  id: string;
  title: string;
  job: ToolJob;
  /** What the section will hold, before the first run. */
  empty: string;
  /** The progress bar's accessible name. */
  progressLabel: string;
  /** The progress bar's status line until the job reports a step. */
  workingStatus: string;
  /** The finished job's result. */
  children: ReactNode;
}

/**
 * Where a tool's job shows: a hint before the first run, progress while it works, the error when
 * it fails, and the result, whose heading takes the focus when it arrives.
 */
export function ToolResult({ id, title, job, empty, progressLabel, workingStatus, children }: Props): ReactElement {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (job.phase === 'done') revealResult(heading.current);
  }, [job.phase]);
  return (
    <section className="tool-result" aria-labelledby={id}>
      <h2 id={id} className="tool-result__title" ref={heading} tabIndex={-1}>
        {title}
      </h2>
      {job.phase === 'idle' && <p className="tool-result__empty">{empty}</p>}
      {job.phase === 'working' && (
        <ProgressBar
          label={progressLabel}
          value={job.job?.progress}
          status={jobStatus(job.job, workingStatus)}
          indeterminate={job.job?.indeterminate}
          since={job.startedAt}
        />
      )}
      {job.phase === 'failed' && (
        <p className="tool-error" role="alert">
          {job.error}
        </p>
      )}
      {children}
    </section>
  );
}
