import type { ReactElement } from 'react';

interface Props {
  /** The accessible name, e.g. 上传进度. */
  label: string;
  /** 0 to 1; undefined draws a waiting stripe (the share is not known yet). */
  value: number | undefined;
  /** What is happening, shown under the bar and announced politely. */
  status: string;
}

/** A labelled progress bar whose status line screen readers announce as it changes. */
export function ProgressBar({ label, value, status }: Props): ReactElement {
  const percent = value === undefined ? undefined : Math.round(Math.min(1, Math.max(0, value)) * 100);
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
      <p className="tool-progress__status" aria-live="polite">
        <span>{status}</span>
        {percent !== undefined && <span className="tool-progress__percent">{percent}%</span>}
      </p>
    </div>
  );
}
