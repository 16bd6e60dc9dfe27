import fs from 'node:fs/promises';
import path from 'node:path';
import type { Hono } from 'hono';
import { createApp } from '../../src/server/app.ts';
import { resetEnv } from '../../src/server/env.ts';
import { stopJobRunner } from '../../src/server/tools/runner.ts';
import { closeToolsPool } from '../../src/server/tools/runtime.ts';
import { stopToolsSweeper } from '../../src/server/tools/sweeper.ts';
import { closeSubsetPool } from '../../src/server/webfont/subset.ts';
import { type Answer, call, type LibraryFixture, openFixtureLibrary } from './font-library.ts';

/** A fixture library and the API on it, with one tools worker, for one suite. */
export async function openToolsApp(name: string): Promise<{ library: LibraryFixture; app: Hono }> {
  const library = await openFixtureLibrary(name);
  process.env['TOOLS_WORKERS'] = '1';
  resetEnv();
  return { library, app: createApp() };
}

/** Stops what a tools suite started: the sweeper, the job runner, both worker pools and the library. */
export async function closeToolsApp(library: LibraryFixture | undefined): Promise<void> {
  stopToolsSweeper();
  await stopJobRunner();
  await closeToolsPool();
  await closeSubsetPool();
  await library?.close();
}

/** What the upload call answers. */
export interface UploadAnswer {
  fileId: string;
  name: string;
  size: number;
  format: string;
  familyName: string;
  glyphCount: number;
  faces: number;
  expiresAt: string;
}

/** A job as GET /tools/api/jobs/:jobId answers it. */
export interface JobAnswer {
  jobId: string;
  state: 'queued' | 'running' | 'done' | 'failed';
  progress: number;
  step: string;
  error?: string;
  result?: {
    files: Array<{ format: string; name: string; size: number; url: string }>;
    zipUrl?: string;
    [extra: string]: unknown;
  };
}

/** Uploads bytes as the multipart field `file`, as the browser's form does. */
export function uploadFont(app: Hono, bytes: Uint8Array, name: string): Promise<Answer<UploadAnswer>> {
  const form = new FormData();
  form.append('file', new Blob([bytes as Uint8Array<ArrayBuffer>]), name);
  return call<UploadAnswer>(app, '/tools/api/upload', { method: 'POST', body: form });
}

/** Polls a job until it is done or failed (at most `timeoutMs`), noting every progress seen. */
export async function waitForJob(
  app: Hono,
  jobId: string,
  timeoutMs = 60_000,
): Promise<JobAnswer & { seen: number[] }> {
  const seen: number[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await call<JobAnswer>(app, `/tools/api/jobs/${jobId}`);
    if (answer.status !== 200) throw new Error(`job ${jobId}: ${answer.status} ${answer.message}`);
    seen.push(answer.data.progress);
    if (answer.data.state === 'done' || answer.data.state === 'failed') return { ...answer.data, seen };
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${answer.data.state} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The files stored under a storage folder, as keys relative to the storage root. */
export async function storedFiles(dataDir: string, prefix: string): Promise<string[]> {
  const root = path.join(dataDir, 'storage');
  try {
    const entries = await fs.readdir(path.join(root, prefix), { recursive: true, withFileTypes: true });
    return entries
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
      .sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
