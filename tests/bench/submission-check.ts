// Submission check benchmark: what the server does with a designer's zip of two CJK weights (Noto
// Sans SC Regular and Bold from the seeded library, 10 MB each) before it stores them — unzip,
// the sanitizer's rules, names, weight, coverage of four character sets and a specimen each — and
// what it does with final files (the comparison of each face with the reviewed one: every character
// kept, a sample of outlines drawn and compared; here Regular against Bold, so every sampled
// character is drawn twice), in this process, against the reference of running the OpenType
// Sanitizer itself (ots-sanitize, the C++ program Chromium and Firefox embed) on the same two faces.
//   npm start once (to seed the library), stop it, then: node tests/bench/submission-check.ts
//   (DATA_DIR=… for another data folder)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compareFaces } from '../../src/server/engine/design-compare.ts';
import { storage } from '../../src/server/storage/index.ts';
import { checkSubmissionFont } from '../../src/server/submissions/checks.ts';
import { makeZip } from '../helpers/submissions.ts';

const RUNS = 5;
const dataDir = path.resolve(process.env['DATA_DIR'] ?? 'data');
const faces = ['NotoSansSC_400Regular.ttf', 'NotoSansSC_700Bold.ttf'].map((name) =>
  path.join(dataDir, 'storage/fonts/noto-sans-sc', name),
);
for (const file of faces)
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run npm start once to seed the library`);

// The check reads and writes through the configured storage: a scratch data folder keeps the library clean.
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'submission-bench-'));
process.env['DATA_DIR'] = scratch;
process.env['LOG_LEVEL'] = 'silent';
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

const bytes = faces.map((file) => new Uint8Array(fs.readFileSync(file)));
const zip = makeZip(bytes.map((data, i) => ({ name: path.basename(faces[i] ?? `${i}.ttf`), data, deflate: true })));
await storage().put('tools/incoming/bench/upload.zip', zip);

const ours: number[] = [];
const compared: number[] = [];
const reference: number[] = [];
for (let run = 0; run < RUNS; run++) {
  let started = performance.now();
  const result = await checkSubmissionFont({
    key: 'tools/incoming/bench/upload.zip',
    name: 'family.zip',
    outPrefix: `private/submissions/bench/${run}`,
    maxFontBytes: 64 << 20,
  });
  ours.push(performance.now() - started);
  if (result.faces.length !== 2) throw new Error('the check did not find both faces');
  started = performance.now();
  const comparison = compareFaces(bytes[0] as Uint8Array, bytes[1] as Uint8Array);
  compared.push(performance.now() - started);
  if (comparison.redrawnCount < comparison.sampled * 0.8) throw new Error('Bold was taken for the Regular');
  started = performance.now();
  for (const file of faces) execFileSync('ots-sanitize', [file, path.join(scratch, 'out.ttf')], { stdio: 'ignore' });
  reference.push(performance.now() - started);
}
fs.rmSync(scratch, { recursive: true, force: true });

const oursMs = median(ours);
const comparedMs = median(compared);
const referenceMs = median(reference);
console.log(`zip of 2 faces, ${(zip.byteLength / 1024 / 1024).toFixed(1)} MB, median of ${RUNS} runs`);
console.log(`  full check (unzip, sanitizer rules, metadata, coverage, 2 specimens): ${oursMs.toFixed(0)} ms`);
console.log(`  reference, ots-sanitize on the 2 faces:                               ${referenceMs.toFixed(0)} ms`);
console.log(`  ratio: ${(oursMs / referenceMs).toFixed(2)}×`);
console.log(`  one final face against the reviewed one (characters, sampled outlines):  ${comparedMs.toFixed(0)} ms`);
console.log(`  ratio: ${(comparedMs / referenceMs).toFixed(2)}×`);
