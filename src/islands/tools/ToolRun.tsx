import { type ReactElement, useId } from 'react';

interface Props {
  label: string;
  /** The button's text while the job runs. */
  workingLabel: string;
  /** Why the tool cannot run yet, shown under the button; empty when it can. */
  blocker: string;
  working: boolean;
  onRun: () => void;
}

/** A tool's start button, disabled while something is missing or the job runs, with the reason. */
export function ToolRun({ label, workingLabel, blocker, working, onRun }: Props): ReactElement {
  const hintId = useId();
  return (
    <div className="tool-run">
      <button
        type="button"
        className="btn btn--primary btn--lg"
        disabled={Boolean(blocker) || working}
        aria-describedby={blocker ? hintId : undefined}
        onClick={onRun}
      >
        {working ? workingLabel : label}
      </button>
      {blocker && (
        <p id={hintId} className="tool-run__hint">
          {blocker}
        </p>
      )}
    </div>
  );
}
