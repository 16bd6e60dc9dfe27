import fs from 'node:fs';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { db } from '../../src/server/db/client.ts';
import { TOOL_TASKS } from '../../src/server/db/schema/index.ts';
import { resetEnv } from '../../src/server/env.ts';
import { storage } from '../../src/server/storage/index.ts';
import { enqueueJob, type JobKind } from '../../src/server/tools/jobs.ts';
import { claimJob, runClaimedJob } from '../../src/server/tools/runner.ts';
import { OPAQUE_STEP, type ProgressOptions } from '../../src/server/tools/task-types.ts';
import { runTask } from '../../src/server/tools/tasks.ts';
import { call, type LibraryFixture } from '../helpers/font-library.ts';
import { closeToolsApp, type JobAnswer, openToolsApp } from '../helpers/tools.ts';

// Long steps must not look frozen: a step that can tell its share reports it as it goes (WOFF by
// table), and one that cannot (WOFF2's single Brotli call, checking what was written) says so,
// so the page shows motion and the time spent instead of a number that sits still.

const TTF = new Uint8Array(fs.readFileSync('tests/fixtures/tools/NotoSansSC-Features.ttf'));

let library: LibraryFixture;
let app: Hono;

beforeAll(async () => {
  // The suite runs its own jobs; the app's runner would claim them first.
  process.env['TOOLS_RUN_JOBS'] = 'false';
  ({ library, app } = await openToolsApp('tools-progress'));
});
afterAll(async () => {
  delete process.env['TOOLS_RUN_JOBS'];
  resetEnv();
  await closeToolsApp(library);
});

describe('the progress of a conversion', () => {
  test('reports WOFF table by table, and WOFF2 and the checks as steps without a share', async () => {
    await storage().put('tools/uploads/progress-test/source', TTF);
    const reports: Array<{ progress: number; step: string; indeterminate: boolean }> = [];
    await runTask(
      {
        kind: 'convert',
        key: 'tools/uploads/progress-test/source',
        faceIndex: 0,
        targets: ['woff', 'woff2'],
        outPrefix: 'tools/outputs/progress-test/1',
        maxSfntBytes: 64 << 20,
      },
      (progress: number, step: string, options?: ProgressOptions) =>
        reports.push({ progress, step, indeterminate: options?.indeterminate ?? false }),
    );
    const woff = reports.filter((report) => report.step === '正在生成 WOFF');
    expect(woff.every((report) => !report.indeterminate)).toBe(true);
    // One report per table of the font, each further than the last.
    const shares = woff.map((report) => report.progress);
    expect(new Set(shares).size).toBeGreaterThanOrEqual(8);
    expect(shares).toEqual([...shares].sort((a, b) => a - b));
    expect(reports).toContainEqual(
      expect.objectContaining({ step: expect.stringMatching(/^正在生成 WOFF2/), indeterminate: true }),
    );
    expect(reports).toContainEqual({ progress: expect.any(Number), step: '正在检查生成的 WOFF2', indeterminate: true });
    // A share, once reported, is not taken back by a later step.
    const all = reports.map((report) => report.progress);
    expect(Math.max(...all)).toBeLessThanOrEqual(1);
    expect(all.at(-1)).toBe(Math.max(...all));
  });
});

describe('a job whose step cannot tell its share', () => {
  test('shows as working without a share while the step runs, and as done once it ends', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const heldKind: JobKind<Record<string, never>> = {
      name: 'held',
      task: TOOL_TASKS.convert,
      run: async (_params, { progress }) => {
        progress(0.4, '正在生成 WOFF2', OPAQUE_STEP);
        await held;
        return { files: [] };
      },
    };
    const view = await enqueueJob(heldKind, 'held', {});
    const handle = await db();
    const row = await claimJob(handle);
    expect(row?.id).toBe(view.jobId);
    if (!row) return;
    const running = runClaimedJob(handle, row, { held: heldKind as JobKind<never> });
    const read = async () =>
      (await call<JobAnswer & { indeterminate?: boolean; step: string }>(app, `/tools/api/jobs/${view.jobId}`)).data;
    await expect
      .poll(read)
      .toMatchObject({ state: 'running', step: '正在生成 WOFF2', progress: 0.4, indeterminate: true });
    release();
    await running;
    const done = await read();
    expect(done.state).toBe('done');
    expect(done.indeterminate).toBeUndefined();
  });
});
