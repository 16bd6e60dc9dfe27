import fs from 'node:fs';
import { eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../src/server/app.ts';
import { db } from '../../src/server/db/client.ts';
import { jobs } from '../../src/server/db/schema/index.ts';
import { resetEnv } from '../../src/server/env.ts';
import type { QueuedInput } from '../../src/server/tools/jobs.ts';
import { JobRunner } from '../../src/server/tools/runner.ts';
import { call, json, type LibraryFixture } from '../helpers/font-library.ts';
import { cmapByFontTools } from '../helpers/font-oracle.ts';
import { closeToolsApp, openToolsApp, uploadFont, waitForJob } from '../helpers/tools.ts';

// Web nodes that leave jobs to a worker (TOOLS_RUN_JOBS=false): app A accepts a job, a separate
// runner over the same database and storage runs it, and app B answers its state and its files.

const TTF = new Uint8Array(fs.readFileSync('tests/fixtures/tools/NotoSansSC-Features.ttf'));

let library: LibraryFixture;
let nodeA: Hono;
let nodeB: Hono;

beforeAll(async () => {
  process.env['TOOLS_RUN_JOBS'] = 'false';
  ({ library, app: nodeA } = await openToolsApp('tools-queue'));
  nodeB = createApp();
});
afterAll(async () => {
  delete process.env['TOOLS_RUN_JOBS'];
  resetEnv();
  await closeToolsApp(library);
});

async function queueConversion(app: Hono, formats: string[]): Promise<string> {
  const upload = await uploadFont(app, TTF, '思源 特性.ttf');
  expect(upload.status).toBe(200);
  const started = await call<{ jobId: string; state: string }>(
    app,
    '/tools/api/convert',
    json('POST', { source: { fileId: upload.data.fileId }, formats }),
  );
  expect(started.status).toBe(200);
  expect(started.data.state).toBe('queued');
  return started.data.jobId;
}

describe('tool jobs queued in the database', () => {
  test('a job accepted by one node is run by a separate runner and served by another node', async () => {
    const jobId = await queueConversion(nodeA, ['woff', 'ttf']);
    // The row carries everything a runner elsewhere needs: the kind and the font by storage key.
    const [row] = await (await db()).select().from(jobs).where(eq(jobs.id, jobId));
    const input = row?.input as QueuedInput;
    expect(input.kind).toBe('convert');
    expect(input.params).toMatchObject({ key: expect.stringMatching(/^tools\/uploads\/[0-9a-f-]{36}\/source$/) });
    expect(row?.status).toBe('queued');

    const runner = new JobRunner({ capacity: 1 });
    await runner.start();
    try {
      const done = await waitForJob(nodeB, jobId);
      expect(done.state).toBe('done');
      expect(done.result?.files.map((file) => file.name)).toEqual(['思源 特性.ttf', '思源 特性.woff']);
      const ttf = done.result?.files.find((file) => file.format === 'ttf');
      const res = await nodeB.request(ttf?.url ?? '');
      expect(res.status).toBe(200);
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect(cmapByFontTools(bytes)).toEqual(cmapByFontTools(TTF));
      const [finished] = await (await db()).select().from(jobs).where(eq(jobs.id, jobId));
      expect(finished?.attempts).toBe(1);
    } finally {
      await runner.stop();
    }
  });

  test('a runner that stops hands its running job back to the queue, and another runner finishes it', async () => {
    const jobId = await queueConversion(nodeA, ['woff2', 'woff', 'svg']);
    const first = new JobRunner({ capacity: 1 });
    await first.start();
    // Stopped as soon as it has claimed the job.
    await expect
      .poll(async () => (await call<{ state: string }>(nodeB, `/tools/api/jobs/${jobId}`)).data.state)
      .not.toBe('queued');
    await first.stop();
    const [handedBack] = await (await db()).select().from(jobs).where(eq(jobs.id, jobId));
    expect(handedBack).toMatchObject({ status: 'queued', attempts: 0 });

    const second = new JobRunner({ capacity: 1 });
    await second.start();
    try {
      const done = await waitForJob(nodeB, jobId);
      expect(done.state).toBe('done');
      expect(done.result?.files.map((file) => file.format).sort()).toEqual(['svg', 'woff', 'woff2']);
    } finally {
      await second.stop();
    }
  });
});
