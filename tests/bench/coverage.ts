// The 「包含这些字」 filter's index: 5,000 distinct characters checked against every face of the seeded
// library, by the bit table of src/server/fonts/coverage-index.ts and, as the reference measured in
// the same run, by asking each face's cmap (a Set per face) for each character in turn.
//   Seed the library once (npm start, or DATA_DIR=… npm start), stop it, then:
//   node tests/bench/coverage.ts            (reads the faces under ${DATA_DIR}/storage/fonts)
import fs from 'node:fs';
import path from 'node:path';
import { coverageSets } from '../../src/server/engine/charsets.ts';
import { readSfnt } from '../../src/server/engine/sfnt.ts';
import { cmapOf } from '../../src/server/engine/sfnt-info.ts';
import { env } from '../../src/server/env.ts';
import { CoverageIndex, MISSING_LISTED } from '../../src/server/fonts/coverage-index.ts';

const RUNS = 30;
const CHARACTERS = 5000;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

const root = path.join(env().dataDir, 'storage', 'fonts');
const files = fs
  .readdirSync(root, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && /\.(ttf|otf)$/i.test(entry.name))
  .map((entry) => path.join(entry.parentPath, entry.name))
  .sort();
if (files.length === 0) throw new Error(`no fonts under ${root}: seed the library first`);

const faces = files.map((file) => ({
  family: path.basename(path.dirname(file)),
  codePoints: [...cmapOf(readSfnt(new Uint8Array(fs.readFileSync(file)))).keys()],
}));
const families = new Set(faces.map((face) => face.family)).size;

// 5,000 characters a designer might paste: the whole of GB 2312's hanzi draw, then Big5's, in a shuffled order.
const sets = coverageSets();
const pool = [...new Set([...sets.gb2312, ...sets.big5])];
for (let i = pool.length - 1; i > 0; i--) {
  const j = Math.floor(Math.random() * (i + 1));
  [pool[i], pool[j]] = [pool[j] ?? 0, pool[i] ?? 0];
}
const text = pool.slice(0, CHARACTERS);

let started = performance.now();
const index = CoverageIndex.of(faces);
const buildMs = performance.now() - started;

const sets_ = faces.map((face) => new Set(face.codePoints));
/** The reference: every face's cmap Set asked for every character, then each family's best face. */
function naive(codePoints: number[]) {
  const perFamily = new Map<string, { lacks: number; missing: number[] }>();
  sets_.forEach((set, position) => {
    const missing: number[] = [];
    let lacks = 0;
    for (const cp of codePoints) {
      if (set.has(cp)) continue;
      if (lacks < MISSING_LISTED) missing.push(cp);
      lacks++;
    }
    const family = faces[position]?.family ?? '';
    const best = perFamily.get(family);
    if (!best || lacks < best.lacks) perFamily.set(family, { lacks, missing });
  });
  return perFamily;
}

// Both must agree before either is timed.
const fromIndex = index.query(text);
const fromSets = naive(text);
for (const family of fromIndex) {
  const expected = fromSets.get(family.family);
  if (expected?.lacks !== family.lacks || expected.missing.join() !== family.missing.join()) {
    throw new Error(`index and reference disagree on ${family.family}`);
  }
}

const indexMs: number[] = [];
const naiveMs: number[] = [];
for (let run = 0; run < RUNS; run++) {
  started = performance.now();
  index.query(text);
  indexMs.push(performance.now() - started);
  started = performance.now();
  naive(text);
  naiveMs.push(performance.now() - started);
}
const rss = process.memoryUsage().rss;
const a = median(indexMs);
const b = median(naiveMs);
console.log(`${faces.length} faces in ${families} families, ${text.length} distinct characters, ${RUNS} runs (median)`);
console.log(`bit-table index:      ${a.toFixed(2)} ms  (worst ${Math.max(...indexMs).toFixed(2)} ms)`);
console.log(`per-face cmap Sets:   ${b.toFixed(2)} ms  (reference)`);
console.log(`ratio:                ${(b / a).toFixed(1)}× faster than the reference`);
console.log(`index built in ${buildMs.toFixed(0)} ms, ${(index.byteSize / 1024 / 1024).toFixed(1)} MB of bits`);
console.log(`process RSS with the reference Sets also loaded: ${(rss / 1024 / 1024).toFixed(0)} MB`);
