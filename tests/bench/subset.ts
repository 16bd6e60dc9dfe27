// Subset service benchmark: Noto Sans SC Regular (10 MB) from the seeded library, through the
// real server as a browser meets it.
//   npm start once (to seed the library), stop it, then: node tests/bench/subset.ts
// Needs `hb-subset` (Debian: libharfbuzz-bin) for the native comparison.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadSubsetFace } from '../../src/server/engine/hb-subset.ts';
import { encodeWoff2Fast } from '../../src/server/engine/woff2-fast.ts';
import { env } from '../../src/server/env.ts';

const GNO = 'noto-sans-sc-400';
const RUNS = 40;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const common = [...fs.readFileSync('src/server/engine/data/tongyong-level1.txt', 'utf8').trim()];
/** A random sample of common characters: with 3,500 to draw from, every request is a cache miss. */
const freshText = (length: number) => {
  const picked = new Set<string>();
  while (picked.size < length) picked.add(common[Math.floor(Math.random() * common.length)] ?? '字');
  return [...picked].join('');
};

const port = 4700 + (process.pid % 200);
const base = `http://localhost:${port}`;
const server = spawn(process.execPath, ['scripts/start.ts'], {
  env: { ...process.env, PORT: String(port), FONT_SEED: 'none', LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
await new Promise<void>((resolve, reject) => {
  server.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  server.stdout?.on('data', (chunk: Buffer) => chunk.toString().includes('is ready at') && resolve());
});

const list = (await (await fetch(`${base}/web/api/fontOverride/getFontList?size=100`)).json()) as {
  data: { records: Array<{ childFontResource: Array<{ fontGNo: string; ttfPath: string }> }> };
};
const font = list.data.records.flatMap((family) => family.childFontResource).find((child) => child.fontGNo === GNO);
if (!font) throw new Error(`${GNO} is not in the library: run npm start once (FONT_SEED=registry) to seed it`);
const fontFile = path.join(env().dataDir, 'storage', font.ttfPath.replace(/^\/files\//, ''));
const bytes = new Uint8Array(fs.readFileSync(fontFile));

async function post(text: string): Promise<string> {
  const res = await fetch(`${base}/webfont/http`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify([{ gno: GNO, text }]),
  });
  const body = (await res.json()) as { data: Array<{ woffPath: string }> };
  return body.data[0]?.woffPath ?? '';
}

async function preview(text: string): Promise<number> {
  const started = performance.now();
  const woff2 = await fetch(`${base}${await post(text)}`);
  await woff2.arrayBuffer();
  return performance.now() - started;
}

// Warm up: the worker loads and preprocesses the face once.
for (let i = 0; i < 5; i++) await preview(freshText(20));

const rows: Array<[string, string]> = [];
const fresh20: number[] = [];
for (let i = 0; i < RUNS; i++) fresh20.push(await preview(freshText(20)));
rows.push(['/webfont/http + WOFF2 fetch, fresh 20 chars', `${median(fresh20).toFixed(2)} ms`]);

const repeated = freshText(20);
await preview(repeated);
const again: number[] = [];
for (let i = 0; i < RUNS; i++) again.push(await preview(repeated));
rows.push(['/webfont/http + WOFF2 fetch, repeated request', `${median(again).toFixed(2)} ms`]);
const postOnly: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const started = performance.now();
  await post(repeated);
  postOnly.push(performance.now() - started);
}
rows.push(['/webfont/http alone, repeated request (WOFF2 in browser cache)', `${median(postOnly).toFixed(2)} ms`]);

const fresh500: number[] = [];
for (let i = 0; i < 10; i++) fresh500.push(await preview(freshText(500)));
rows.push(['/webfont/http + WOFF2 fetch, fresh 500 chars', `${median(fresh500).toFixed(2)} ms`]);

const a20 = [...freshText(20)].map((ch) => ch.codePointAt(0) ?? 0);
const loadStarted = performance.now();
const face = loadSubsetFace(bytes);
face.subset(a20);
rows.push([
  'first subset of a newly loaded face (load + subset), 20 chars',
  `${(performance.now() - loadStarted).toFixed(2)} ms`,
]);
const plainTimes: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const started = performance.now();
  face.subset(a20);
  plainTimes.push(performance.now() - started);
}
rows.push(['subset step alone (harfbuzzjs, plain face), 20 chars', `${median(plainTimes).toFixed(3)} ms`]);
const preprocessStarted = performance.now();
face.preprocess();
rows.push([
  'preprocessing the face (once, for popular fonts)',
  `${(performance.now() - preprocessStarted).toFixed(1)} ms`,
]);
for (let i = 0; i < 5; i++) face.subset(a20);
const subsetTimes: number[] = [];
const woffTimes: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const started = performance.now();
  const ttf = face.subset(a20);
  subsetTimes.push(performance.now() - started);
  const encoded = performance.now();
  encodeWoff2Fast(ttf, 5);
  woffTimes.push(performance.now() - encoded);
}
face.destroy();
rows.push(['subset step alone (harfbuzzjs, preprocessed face), 20 chars', `${median(subsetTimes).toFixed(3)} ms`]);
rows.push(['fast WOFF2 (Brotli q5, null transform), 20 chars', `${median(woffTimes).toFixed(3)} ms`]);

const hbSubset = spawnSync('hb-subset', ['--version']).status === 0;
if (hbSubset) {
  const out = path.join(os.tmpdir(), `bench-${process.pid}.ttf`);
  const native: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const text = freshText(20);
    const started = performance.now();
    execFileSync('hb-subset', [fontFile, `--text=${text}`, `--output-file=${out}`]);
    native.push(performance.now() - started);
  }
  fs.rmSync(out, { force: true });
  rows.push(['hb-subset CLI spawn (native HarfBuzz), fresh 20 chars', `${median(native).toFixed(2)} ms`]);
} else {
  rows.push(['hb-subset CLI spawn', 'not installed (apt-get install libharfbuzz-bin)']);
}

console.log(`Subset service, ${GNO} (${(bytes.byteLength / 1024 / 1024).toFixed(1)} MB), medians:`);
for (const [label, value] of rows) console.log(`  ${label.padEnd(64)} ${value}`);

server.kill('SIGTERM');
