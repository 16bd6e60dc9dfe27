// Tool calls: temporary uploads and the workflow tasks of SPEC §7.
import { http } from './http.ts';
import type { Query } from './types.ts';
import { type UploadInput, uploadFile } from './upload.ts';

/** The workflow tasks SPEC §7 names, by number. */
export const WORKFLOW_TASKS = {
  unidentifiedGlyphs: 125,
  pixelFont: 143,
  pixelFontPreview: 146,
} as const;

/** A workflow task number. */
export type WorkflowTask = (typeof WORKFLOW_TASKS)[keyof typeof WORKFLOW_TASKS];

/** A file kept for a short time for a tool to work on. */
export interface TempFile {
  key: string;
  url?: string;
  [key: string]: unknown;
}

/** Uploads a file for a tool. */
export const uploadTempFile = (input: UploadInput) => uploadFile<TempFile>('/tools/api/upload/temp', input);

/** Starts or reads a workflow task with its parameters. */
export const runWorkflowTask = <T = Record<string, unknown>>(task: WorkflowTask, query: Query = {}) =>
  http<T>(`/tools/api/workflow/${task}`, { query });
