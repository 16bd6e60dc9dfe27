import type { ReactElement } from 'react';
import { Elapsed } from './Elapsed.tsx';

interface Props {
  /** The accessible name, e.g. 上传进度. */
  label: string;
  /** 0 to 1; undefined draws a moving stripe (the share is not known yet). */
  value: number | undefined;
  /** What is happening, shown under the bar and announced politely. */
  status: string;
  /** The step cannot tell its share (one call into an encoder): a moving stripe instead of a still bar. */
  indeterminate?: boolean | undefined;
  /** When the work began (performance.now()), to show the time spent once it passes a second. */
  since?: number | undefined;
}

/**
 * A labelled progress bar whose status line screen readers announce as it changes; the time spent
 * counts beside it (not announced, since it changes every second).
 */
export function ProgressBar({ label, value, status, indeterminate = false, since }: Props): ReactElement {
  const percent = value === undefined || indeterminate ? undefined : Math.round(Math.min(1, Math.max(0, value)) * 100);
  return (
    <div className="tool-progress">
      <div
        className="tool-progress__track"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={percent === undefined ? status : `${status} ${percent}%`}
        data-indeterminate={percent === undefined ? '' : undefined}
      >
        <span className="tool-progress__fill" style={{ width: `${percent ?? 35}%` }} />
      </div>
      <p className="tool-progress__status">
        <span aria-live="polite">{status}</span>
        <span className="tool-progress__percent" aria-hidden="true">
          {percent !== undefined && `${percent}%`}
          {percent !== undefined && since !== undefined && ' · '}
          {since !== undefined && <Elapsed since={since} />}
        </span>
      </p>
    </div>
  );
}
