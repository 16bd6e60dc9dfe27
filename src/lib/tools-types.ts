// The font tools' job as the server keeps it and the browser polls it. Types only: the browser
// imports them with `import type`, so none of the server's code reaches its bundle.

/** The states of a job. */
export type JobState = 'queued' | 'running' | 'done' | 'failed';

/** One downloadable output. */
export interface JobFile {
  format: string;
  name: string;
  size: number;
  url: string;
}

/** What a job's task adds to its result besides the files. */
export interface JobExtras {
  familyName?: string;
  /** Characters the subset kept. */
  keptCount?: number;
  /** Characters asked for that the font does not have (the first few hundred). */
  missing?: string;
  /** How many characters the font does not have, all of them. */
  missingCount?: number;
  /** The `@font-face` rules of a subset. */
  css?: string;
}

/** What a finished job offers: its files, a zip of them when there are several, and extras. */
export interface JobResult extends JobExtras {
  files: JobFile[];
  zipUrl?: string;
}

/** The job as GET /tools/api/jobs/:jobId answers it. */
export interface JobView {
  jobId: string;
  state: JobState;
  /** 0 to 1. */
  progress: number;
  /** What the job is doing now, in Chinese. */
  step: string;
  /** The current step cannot tell how far it is: show motion and the time spent, not a share. */
  indeterminate?: boolean;
  error?: string;
  result?: JobResult;
  /** When the job and its files are deleted. */
  expiresAt: string;
}
