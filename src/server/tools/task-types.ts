import type { TargetFormat } from '../engine/convert.ts';

/** Reports how far a task is (0–1) and what it is doing, in Chinese for the progress display. */
export type Progress = (progress: number, step: string) => void;

/** A file a task wrote into storage. */
export interface TaskFile {
  format: TargetFormat;
  key: string;
  size: number;
}
