import type { TargetFormat } from '../engine/convert.ts';

/** How a step reports itself beyond its share. */
export interface ProgressOptions {
  /**
   * The step cannot tell how far it is (one call into an encoder, such as Brotli in WOFF2): the page
   * shows motion and the time spent instead of a share that would sit still.
   */
  indeterminate?: boolean;
}

/** The options of a step that runs as one call and cannot say how far it is. */
export const OPAQUE_STEP: ProgressOptions = { indeterminate: true };

/** Reports how far a task is (0–1) and what it is doing, in Chinese for the progress display. */
export type Progress = (progress: number, step: string, options?: ProgressOptions) => void;

/** A file a task wrote into storage. */
export interface TaskFile {
  format: TargetFormat;
  key: string;
  size: number;
}
