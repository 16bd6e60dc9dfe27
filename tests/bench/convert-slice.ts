// Converter and web-font slicing benchmark: one whole font TTF → WOFF2, then every slice of the
// CSS service, beside the same work done by Google's woff2_compress and by fontTools' pyftsubset.
//   node tests/bench/convert-slice.ts [font.ttf] [--slices N]
// Without a path it takes the largest TTF of the seeded library (DATA_DIR/storage/fonts). Needs
// woff2_compress (Debian: woff2) and pyftsubset (Debian: fonttools, with python3-brotli).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadSubsetFace } from '../../src/server/engine/hb-subset.ts';
import { encodeWoff2 } from '../../src/server/engine/woff2.ts';
import { encodeWoff2Fast } from '../../src/server/engine/woff2-fast.ts';
import { env } from '../../src/server/env.ts';
import { planFontSlices } from '../../src/server/tools/tasks.ts';

const args = process.argv.slice(2);
const sliceLimit = args.includes('--slices') ? Number(args[args.indexOf('--slices') + 1]) : Number.POSITIVE_INFINITY;
const given = args.find((arg, i) => !arg.startsWith('--') && args[i - 1] !== '--slices');

function largestLibraryTtf(): string {
  const root = path.join(env().dataDir, 'storage', 'fonts');
  const files = fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ttf'))
    .map((entry) => path.join(entry.parentPath, entry.name));
  if (files.length === 0) throw new Error(`no TTF under ${root}: run npm start once to seed the library`);
  return files.sort((a, b) => fs.statSync(b).size - fs.statSync(a).size)[0] as string;
}

const fontFile = given ?? largestLibraryTtf();
const font = new Uint8Array(fs.readFileSync(fontFile));
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-convert-'));
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const time = async <T>(run: () => T | Promise<T>): Promise<[T, number]> => {
  const started = performance.now();
  const result = await run();
  return [result, performance.now() - started];
};
const rows: Array<[string, string, string]> = [];

console.log(`font: ${fontFile} (${kb(font.byteLength)})`);

// 1. The whole font, TTF → WOFF2 at Brotli quality 11.
const [ours, oursMs] = await time(() => encodeWoff2(font));
const ttfCopy = path.join(work, 'font.ttf');
fs.writeFileSync(ttfCopy, font);
const [, nativeMs] = await time(() => execFileSync('woff2_compress', [ttfCopy], { stdio: 'ignore' }));
const nativeBytes = fs.statSync(path.join(work, 'font.woff2')).size;
rows.push(['TTF → WOFF2, ours (wawoff2, q11)', seconds(oursMs), kb(ours.byteLength)]);
rows.push(['TTF → WOFF2, woff2_compress', seconds(nativeMs), kb(nativeBytes)]);

// 2. The CSS service's slices: plan, then every slice subset and encoded.
const [plan, planMs] = await time(() => planFontSlices(font));
const slices = plan.slices.slice(0, sliceLimit);
rows.push([`slice plan (${plan.slices.length} slices, ratio ${plan.ratio.toFixed(2)})`, seconds(planMs), '']);

const face = loadSubsetFace(font);
const q11Sizes: number[] = [];
const [, q11Ms] = await time(async () => {
  for (const slice of slices) q11Sizes.push((await encodeWoff2(face.subset(slice))).byteLength);
});
let q5Bytes = 0;
const [, q5Ms] = await time(() => {
  for (const slice of slices) q5Bytes += encodeWoff2Fast(face.subset(slice), 5).byteLength;
});
face.destroy();
const q11Bytes = q11Sizes.reduce((sum, size) => sum + size, 0);
rows.push([`${slices.length} slices, ours hb-subset + WOFF2 q11`, seconds(planMs + q11Ms), kb(q11Bytes)]);
rows.push([`${slices.length} slices, ours hb-subset + fast WOFF2 q5`, seconds(planMs + q5Ms), kb(q5Bytes)]);

let pyBytes = 0;
const [, pyMs] = await time(() => {
  slices.forEach((slice, n) => {
    const output = path.join(work, `slice-${n}.woff2`);
    const unicodes = slice.map((cp) => cp.toString(16)).join(',');
    execFileSync(
      'pyftsubset',
      [fontFile, `--unicodes=${unicodes}`, '--flavor=woff2', '--layout-features=*', `--output-file=${output}`],
      { stdio: 'ignore' },
    );
    pyBytes += fs.statSync(output).size;
  });
});
rows.push([`${slices.length} slices, pyftsubset --flavor=woff2`, seconds(pyMs), kb(pyBytes)]);

const sorted = [...q11Sizes].sort((a, b) => a - b);
const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
fs.rmSync(work, { recursive: true, force: true });

const width = Math.max(...rows.map(([label]) => label.length));
for (const [label, ms, size] of rows) console.log(`${label.padEnd(width)}  ${ms.padStart(9)}  ${size.padStart(11)}`);
console.log(`slice sizes at q11: min ${kb(at(0))}, median ${kb(at(0.5))}, 90th ${kb(at(0.9))}, max ${kb(at(1))}`);
console.log(
  `ratios: TTF→WOFF2 ours / woff2_compress = ${(oursMs / nativeMs).toFixed(2)}×; slicing q11 ours / pyftsubset = ${((planMs + q11Ms) / pyMs).toFixed(2)}×; q5 = ${((planMs + q5Ms) / pyMs).toFixed(2)}×`,
);
