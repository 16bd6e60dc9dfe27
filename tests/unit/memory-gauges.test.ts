import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Hono } from 'hono';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { FaceCache } from '../../src/server/engine/face-cache.ts';
import type { SubsetFace } from '../../src/server/engine/hb-subset.ts';
import { gaugeReadings } from '../../src/server/engine/memory-gauges.ts';
import { HotStorage } from '../../src/server/storage/hot.ts';
import { LocalStorage } from '../../src/server/storage/local.ts';
import { SUBSET_MEMORY_MS, subsetAnswerCache } from '../../src/server/webfont/answers.ts';

// Each cache bounded in bytes says what it holds against its bound, so that a soak can tell which
// part of the process's memory a cache is.

const MB = 1024 * 1024;
const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'memory-gauges-'));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

function face(size: number): SubsetFace {
  return {
    size,
    preprocessed: false,
    preprocessedSize: size * 4,
    uses: 0,
    subset: () => new Uint8Array(),
    preprocess: () => {},
    destroy: () => {},
  };
}

describe('memory gauges', () => {
  test('the subset faces: what the faces held cost, within the budget, as faces come and go', () => {
    const cache = new FaceCache(100 * MB);
    cache.set('a', face(30 * MB));
    cache.set('b', face(40 * MB));
    expect(gaugeReadings()['subset faces']).toEqual({ bytes: 70 * MB, limitBytes: 100 * MB, entries: 2 });
    cache.set('c', face(50 * MB));
    expect(gaugeReadings()['subset faces']).toEqual({ bytes: 90 * MB, limitBytes: 100 * MB, entries: 2 });
  });

  test('hot storage: the bytes of the objects it keeps in memory, not those only on disk', async () => {
    const storage = new HotStorage(new LocalStorage(folder));
    await storage.put('previews/a.woff2', new Uint8Array(3000), { hot: true });
    await storage.put('previews/b.woff2', new Uint8Array(5000));
    const reading = gaugeReadings()['hot storage'];
    expect(reading).toMatchObject({ bytes: 3000, entries: 1 });
    expect(reading?.limitBytes).toBeGreaterThan(3000);
  });

  test('subset answers: an expired answer gives its memory back without being asked for again', async () => {
    vi.useFakeTimers();
    // lru-cache takes a start time of 0 as "no time": the fake clock starts there.
    vi.advanceTimersByTime(1000);
    try {
      const app = new Hono().post('/webfont/http', subsetAnswerCache(), (c) => c.json({ data: 'x'.repeat(5000) }));
      const call = () => app.request('/webfont/http', { method: 'POST', body: '[{"gno":"a","text":"永"}]' });
      expect((await call()).status).toBe(200);
      expect(gaugeReadings()['subset answers']).toMatchObject({ entries: 1 });
      expect(gaugeReadings()['subset answers']?.bytes).toBeGreaterThan(5000);
      vi.advanceTimersByTime(2 * SUBSET_MEMORY_MS);
      expect(gaugeReadings()['subset answers']).toMatchObject({ bytes: 0, entries: 0 });
    } finally {
      vi.useRealTimers();
    }
  });
});
