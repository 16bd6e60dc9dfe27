import { afterAll, describe, expect, test } from 'vitest';

// The built server loads the server's modules twice in one thread: the page bundle (which serves the
// API) and the start script (which asks identification to prepare its references) each hold a copy.
// The owners of worker threads must still be one per process, or each copy starts its own workers:
// two identification workers held two readers' models and two reference indexes, one never written.
// A second copy of a module is made here by importing it under another URL.

const copy = <T>(path: string): Promise<T> => import(/* @vite-ignore */ `${path}?copy`) as Promise<T>;

type Host = typeof import('../../src/server/tools/identify/host.ts');
type Runtime = typeof import('../../src/server/tools/runtime.ts');
type Subsets = typeof import('../../src/server/webfont/subset-pool.ts');

describe('workers are owned once per process, however often their module is loaded', () => {
  afterAll(async () => {
    const runtime = await import('../../src/server/tools/runtime.ts');
    const subsets = await import('../../src/server/webfont/subset-pool.ts');
    await Promise.all([runtime.closeToolsPool(), subsets.closeSubsetWorkers()]);
  });

  test('identification: one host, so one worker, one model and one index writer', async () => {
    const first = await import('../../src/server/tools/identify/host.ts');
    const second = await copy<Host>('../../src/server/tools/identify/host.ts');
    expect(second).not.toBe(first);
    expect(second.identifyHost()).toBe(first.identifyHost());
    await second.closeIdentifyHost();
    // Closed from either copy, the next use from the other starts afresh.
    expect(first.identifyHost()).not.toBeUndefined();
    expect(second.identifyHost()).toBe(first.identifyHost());
  });

  test('tools: one pool of workers', async () => {
    const first = await import('../../src/server/tools/runtime.ts');
    const second = await copy<Runtime>('../../src/server/tools/runtime.ts');
    expect(second.toolsPool()).toBe(first.toolsPool());
  });

  test('subsets: one pool, whose faces stay within one budget', async () => {
    const first = await import('../../src/server/webfont/subset-pool.ts');
    const second = await copy<Subsets>('../../src/server/webfont/subset-pool.ts');
    expect(second.subsetPool()).toBe(first.subsetPool());
  });
});
