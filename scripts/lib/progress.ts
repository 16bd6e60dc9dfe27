/** A progress reporter for long first-run steps. */
export interface Progress {
  /** Reports a step: `done` of `total` units, with a short label. */
  update(step: string, done: number, total: number, unit?: 'bytes' | 'items'): void;
  /** Ends the current step with a final line. */
  finish(message: string): void;
}

function formatAmount(value: number, unit: 'bytes' | 'items'): string {
  return unit === 'bytes' ? `${(value / 1024 / 1024).toFixed(1)} MB` : String(value);
}

/**
 * Writes progress to stdout: one line redrawn in place on a terminal, or a line every few
 * seconds when the output is a log file or CI.
 */
export function createProgress(stream: NodeJS.WriteStream = process.stdout): Progress {
  let lastLine = 0;
  let drawn = false;
  return {
    update(step, done, total, unit = 'items') {
      const percent = total > 0 ? Math.floor((done / total) * 100) : 0;
      const line = `${step}: ${formatAmount(done, unit)} / ${formatAmount(total, unit)} (${percent}%)`;
      if (stream.isTTY) {
        stream.write(`\r\x1b[2K${line}`);
        drawn = true;
      } else if (Date.now() - lastLine > 3_000 || done === total) {
        lastLine = Date.now();
        stream.write(`${line}\n`);
      }
    },
    finish(message) {
      if (drawn) stream.write('\r\x1b[2K');
      drawn = false;
      stream.write(`${message}\n`);
    },
  };
}
