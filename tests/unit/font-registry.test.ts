import { spawn } from 'node:child_process';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { createCanvas } from '@napi-rs/canvas';
import { afterEach, describe, expect, test } from 'vitest';
import { readSfnt } from '../../src/server/engine/sfnt.ts';
import { cmapOf, verticalMetrics } from '../../src/server/engine/sfnt-info.ts';
import {
  acquireFace,
  type DrawingFace,
  describeFace,
  registeredFaceCount,
  shareFontRegistry,
} from '../../src/server/engine/text/font-registry.ts';

const FONTS = path.resolve('tests/fixtures/fonts');
const REGULAR = path.join(FONTS, 'noto-sans-sc/NotoSansSC_400Regular.ttf');
const KUAILE = path.join(FONTS, 'zcool-kuaile/ZCOOLKuaiLe_400Regular.ttf');
const MASHAN = path.join(FONTS, 'ma-shan-zheng/MaShanZheng_400Regular.ttf');

/** The alpha of 「永」 drawn in a face: equal arrays mean the same glyph. */
function ink(family: string): Uint8Array {
  const canvas = createCanvas(64, 64);
  const ctx = canvas.getContext('2d');
  ctx.font = `48px "${family}"`;
  ctx.fillText('永', 8, 52);
  const pixels = ctx.getImageData(0, 0, 64, 64).data;
  return Uint8Array.from({ length: 64 * 64 }, (_, i) => pixels[i * 4 + 3] as number);
}

const held: DrawingFace[] = [];
afterEach(() => {
  for (const face of held.splice(0)) face.release();
});
function take(source: Parameters<typeof acquireFace>[0]): DrawingFace {
  const face = acquireFace(source);
  held.push(face);
  return face;
}

describe('acquireFace', () => {
  test('names a face by its bytes, so the same file from a path or from bytes is one face', async () => {
    const fs = await import('node:fs');
    const bytes = new Uint8Array(fs.readFileSync(REGULAR));
    const fromBytes = take({ bytes });
    const fromPath = take({ path: REGULAR, sha256: fromBytes.id });
    expect(fromPath.family).toBe(fromBytes.family);
    expect(take({ path: KUAILE }).family).not.toBe(fromBytes.family);
  });

  test('answers the coverage of the face', () => {
    const face = take({ path: REGULAR });
    expect(face.has('永'.codePointAt(0) as number)).toBe(true);
    expect(face.has(0x10ffff)).toBe(false);
    expect(face.codePoints.length).toBeGreaterThan(10);
    expect([...face.codePoints]).toEqual([...face.codePoints].sort((a, b) => a - b));
  });

  test('keeps a face registered while another holder remains, and unregisters it after the last', () => {
    const fallback = ink('a family nobody registered');
    const first = acquireFace({ path: REGULAR });
    const second = acquireFace({ path: REGULAR });
    const drawn = ink(first.family);
    expect(drawn).not.toEqual(fallback);
    first.release();
    first.release(); // twice is harmless: it does not take the second holder's share
    expect(ink(second.family)).toEqual(drawn);
    second.release();
    expect(ink(second.family)).toEqual(fallback);
  });

  test('a worker that gave faces back has their files unmapped, once the canvases that drew with them are collected', async () => {
    // As the server runs (`npm start` gives Node --expose-gc), in a child process of its own.
    const child = spawn(
      process.execPath,
      ['--expose-gc', path.resolve('tests/unit/font-registry/release-child.ts'), REGULAR, KUAILE, MASHAN],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    // Drawn with, all three were mapped; the child ends only once none is.
    expect(output.trim().split('\n')).toEqual(expect.arrayContaining(['mapped 3', 'mapped 0']));
  });

  test('keeps the face of one thread while other threads take and give back the same file', async () => {
    shareFontRegistry();
    const face = take({ path: REGULAR });
    const drawn = ink(face.family);
    const workers = [0, 1].map(
      () =>
        new Worker(path.resolve('tests/unit/font-registry/draw-worker.ts'), {
          workerData: { path: REGULAR, rounds: 200 },
        }),
    );
    // Draw all the while the workers register and remove: every drawing is the face's own glyph.
    let running = workers.length;
    const finished = Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve, reject) => {
            worker.once('message', () => {
              running--;
              resolve();
            });
            worker.once('error', reject);
          }),
      ),
    );
    let drawings = 0;
    while (running > 0) {
      expect(ink(face.family)).toEqual(drawn);
      drawings++;
      await new Promise((resolve) => setImmediate(resolve));
    }
    await finished;
    await Promise.all(workers.map((worker) => worker.terminate()));
    expect(drawings).toBeGreaterThan(0);
    expect(ink(face.family)).toEqual(drawn);
  });

  test('counts each face once however many hold it', () => {
    const before = registeredFaceCount();
    take({ path: KUAILE });
    take({ path: KUAILE });
    expect(registeredFaceCount()).toBe(before + 1);
  });

  test('describes a face from its file without registering it, as its whole bytes would', async () => {
    const fs = await import('node:fs');
    const before = registeredFaceCount();
    const described = describeFace({ path: MASHAN });
    expect(registeredFaceCount()).toBe(before);
    const sfnt = readSfnt(new Uint8Array(fs.readFileSync(MASHAN)));
    expect([...described.codePoints]).toEqual([...cmapOf(sfnt).keys()].sort((a, b) => a - b));
    expect(described.metrics).toEqual(verticalMetrics(sfnt));
    expect(take({ path: MASHAN }).metrics).toEqual(described.metrics);
  });
});
