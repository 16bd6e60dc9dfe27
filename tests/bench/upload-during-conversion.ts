// Upload latency while a large conversion runs: the tools API checks each upload in a worker of its
// own, so an upload should not wait for conversions. Times the same upload with the workers idle
// (the reference) and while a five-format conversion of the same font is in flight.
//   node tests/bench/upload-during-conversion.ts
import fs from 'node:fs';
import { call } from '../helpers/font-library.ts';
import { closeToolsApp, openToolsApp, uploadFont, waitForJob } from '../helpers/tools.ts';

const RUNS = 7;
const TTF = new Uint8Array(fs.readFileSync('tests/fixtures/tools/NotoSansSC-Features.ttf'));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

const { app, library } = await openToolsApp('upload-bench');
const idle: number[] = [];
const busy: number[] = [];
for (let run = 0; run < RUNS; run += 1) {
  let started = performance.now();
  await uploadFont(app, TTF, `idle-${run}.ttf`);
  idle.push(performance.now() - started);

  const source = await uploadFont(app, TTF, `source-${run}.ttf`);
  const job = await call<{ jobId: string }>(app, '/tools/api/convert', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ source: { fileId: source.data.fileId }, formats: ['woff2', 'svg', 'woff', 'eot', 'ttf'] }),
  });
  started = performance.now();
  await uploadFont(app, TTF, `busy-${run}.ttf`);
  busy.push(performance.now() - started);
  // The next run starts with idle workers again.
  await waitForJob(app, job.data.jobId);
}
await closeToolsApp(library);

const idleMs = median(idle);
const busyMs = median(busy);
console.log(`upload of a ${(TTF.byteLength / 1024).toFixed(0)} KB TTF, median of ${RUNS} runs`);
console.log(`  workers idle (reference):           ${idleMs.toFixed(0)} ms`);
console.log(`  during a five-format conversion:    ${busyMs.toFixed(0)} ms`);
console.log(`  ratio: ${(busyMs / idleMs).toFixed(2)}×`);
