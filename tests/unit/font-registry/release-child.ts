// Run as `node --expose-gc release-child.ts <font files…>`, as `npm start` runs the server: a worker thread
// draws with each face in a canvas that lives long enough to reach V8's old space (as a pixel
// rasterizer's does), then drops the canvases and gives the faces back, and stays idle. The main
// thread prints how many of the font files are still mapped, each time the count changes, and ends
// once none is: Skia lets go of a removed face's file only when the canvases that drew with it are
// collected, which an idle worker's V8 does not do on its own.
import fs from 'node:fs';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { createCanvas } from '@napi-rs/canvas';
import { acquireFace, shareFontRegistry } from '../../../src/server/engine/text/font-registry.ts';

const mapped = (files: string[]) =>
  new Set(
    fs
      .readFileSync('/proc/self/maps', 'utf8')
      .split('\n')
      .map((line) => line.slice(line.indexOf('/')))
      .filter((name) => files.includes(name)),
  ).size;

if (isMainThread) {
  const files = process.argv.slice(2);
  shareFontRegistry();
  const worker = new Worker(new URL(import.meta.url), { workerData: files });
  await new Promise((resolve) => worker.once('message', resolve));
  let last = -1;
  for (;;) {
    const count = mapped(files);
    if (count !== last) console.log(`mapped ${count}`);
    last = count;
    if (count === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await worker.terminate();
} else {
  const files = workerData as string[];
  const faces = files.map((file) => acquireFace({ path: file }));
  let canvases = faces.map((face) => {
    const canvas = createCanvas(64, 64);
    const ctx = canvas.getContext('2d');
    ctx.font = `48px "${face.family}"`;
    ctx.fillText('永', 8, 52);
    return canvas;
  });
  // Enough allocation meanwhile that the canvases are promoted to the old space.
  let churn: number[][] = [];
  for (let i = 0; i < 100; i++) churn = [new Array(100_000).fill(i), ...churn.slice(0, 3)];
  canvases = [];
  for (const face of faces) face.release();
  parentPort?.postMessage({ released: faces.length, canvases: canvases.length, churn: churn.length });
  setInterval(() => undefined, 60_000);
}
