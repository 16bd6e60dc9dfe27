// Live-preview benchmark: Noto Sans SC Regular (10 MB) from the seeded library, through the real
// server as a browser meets it, against spawning HarfBuzz's own `hb-subset` on the same file in the
// same run, first on an idle server and then while the tools convert a whole font to WOFF2.
//   npm start once (to seed the library), stop it, then: node tests/bench/subset.ts
// Needs `hb-subset` (Debian: libharfbuzz-bin) for the reference. BENCH_PORT picks the server's port.
import { execFile, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { loadSubsetFace } from '../../src/server/engine/hb-subset.ts';
import { encodeWoff2Fast } from '../../src/server/engine/woff2-fast.ts';
import { env } from '../../src/server/env.ts';

const GNO = 'noto-sans-sc-400';
/** Calls per figure; each figure is their median. */
const RUNS = 15;
const run = promisify(execFile);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const common = [...fs.readFileSync('src/server/engine/data/tongyong-level1.txt', 'utf8').trim()];
/** A random sample of common characters: with 3,500 to draw from, every request is a cache miss. */
const freshText = (length: number) => {
  const picked = new Set<string>();
  while (picked.size < length) picked.add(common[Math.floor(Math.random() * common.length)] ?? '字');
  return [...picked].join('');
};

const port = Number(process.env['BENCH_PORT'] ?? 4700 + (process.pid % 200));
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

interface Item {
  woffPath: string;
  woff2?: string;
}

async function post(text: string, embed: boolean): Promise<Item> {
  const res = await fetch(`${base}/webfont/http${embed ? '?embed=woff2' : ''}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify([{ gno: GNO, text }]),
  });
  const body = (await res.json()) as { data: Item[] };
  const item = body.data[0];
  if (!item) throw new Error(`the subset service answered ${res.status}`);
  return item;
}

/** What the site's pages do: one call whose answer carries the WOFF2. */
async function embedded(text: string): Promise<number> {
  const started = performance.now();
  const item = await post(text, true);
  if (Buffer.from(item.woff2 ?? '', 'base64').byteLength === 0) throw new Error('no WOFF2 in the answer');
  return performance.now() - started;
}

/** What SPEC's clients do: the call, then fetching the WOFF2 by its path. */
async function byPath(text: string): Promise<number> {
  const started = performance.now();
  const woff2 = await fetch(`${base}${(await post(text, false)).woffPath}`);
  await woff2.arrayBuffer();
  return performance.now() - started;
}

const hbSubset = await run('hb-subset', ['--version']).then(
  () => true,
  () => false,
);
const cliOut = path.join(os.tmpdir(), `bench-${process.pid}.ttf`);
/** The reference: HarfBuzz's own command-line tool, process start included. */
function cli(text: string): number {
  const started = performance.now();
  execFileSync('hb-subset', [fontFile, `--text=${text}`, `--output-file=${cliOut}`]);
  return performance.now() - started;
}

/** The floor of any answer on this machine now: a round trip to the liveness probe. */
async function healthz(): Promise<number> {
  const started = performance.now();
  await (await fetch(`${base}/healthz`)).arrayBuffer();
  return performance.now() - started;
}

interface Round {
  embedded: number[];
  byPath: number[];
  cli: number[];
}

/** Fresh 20-character previews both ways and the CLI, taken in turn so that all meet the same load. */
async function freshRound(stillBusy?: () => Promise<boolean>): Promise<Round> {
  const round: Round = { embedded: [], byPath: [], cli: [] };
  for (let i = 0; i < RUNS; i++) {
    round.embedded.push(await embedded(freshText(20)));
    round.byPath.push(await byPath(freshText(20)));
    if (hbSubset) round.cli.push(cli(freshText(20)));
  }
  if (stillBusy && !(await stillBusy())) console.warn('the conversion ended before the busy round did');
  return round;
}

const rows: Array<[string, string]> = [];
const ms = (value: number) => `${value.toFixed(2)} ms`;
const against = (value: number, reference: number) =>
  Number.isFinite(reference) ? `${ms(value)}  (${(value / reference).toFixed(2)}× the CLI)` : ms(value);

// Warm up: the preview worker loads the face and, once it is popular and the worker idle for a
// moment, preprocesses it, as between a visitor's pages.
for (let i = 0; i < 8; i++) await embedded(freshText(20));
await byPath(freshText(20));
await new Promise((resolve) => setTimeout(resolve, 3000));

const quiet = await freshRound();
const quietCli = median(quiet.cli);
rows.push(['quiet: hb-subset CLI spawn, fresh 20 chars (reference)', hbSubset ? ms(quietCli) : 'not installed']);
rows.push(['quiet: preview, fresh 20 chars (call answers with the WOFF2)', against(median(quiet.embedded), quietCli)]);
rows.push(['quiet: preview, fresh 20 chars (call, then GET of the WOFF2)', against(median(quiet.byPath), quietCli)]);

const repeatedText = freshText(20);
await embedded(repeatedText);
await byPath(repeatedText);
const again: number[] = [];
const againByPath: number[] = [];
const floor: number[] = [];
for (let i = 0; i < RUNS; i++) {
  again.push(await embedded(repeatedText));
  againByPath.push(await byPath(repeatedText));
  floor.push(await healthz());
}
const floorMs = median(floor);
rows.push(['quiet: GET /healthz, the server’s cheapest answer (reference)', ms(floorMs)]);
rows.push([
  'quiet: preview, repeated (call answers with the WOFF2)',
  `${ms(median(again))}  (${(median(again) / floorMs).toFixed(2)}× /healthz)`,
]);
rows.push(['quiet: preview, repeated (call, then GET of the WOFF2)', ms(median(againByPath))]);
const fresh500: number[] = [];
for (let i = 0; i < 5; i++) fresh500.push(await embedded(freshText(500)));
rows.push(['quiet: preview, fresh 500 chars (call answers with the WOFF2)', ms(median(fresh500))]);

// Busy: a whole-font conversion to WOFF2 (Brotli quality 11) keeps a tools worker on a core.
const form = new FormData();
form.append('file', new Blob([bytes]), 'NotoSansSC-Regular.ttf');
const upload = (await (await fetch(`${base}/tools/api/upload`, { method: 'POST', body: form })).json()) as {
  data?: { fileId: string };
  message: string;
};
if (!upload.data) throw new Error(`upload refused: ${upload.message}`);
const convert = (await (
  await fetch(`${base}/tools/api/convert`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ source: { fileId: upload.data.fileId }, formats: ['woff2'] }),
  })
).json()) as { data?: { jobId: string }; message: string };
if (!convert.data) throw new Error(`conversion refused: ${convert.message}`);
const jobUrl = `${base}/tools/api/jobs/${convert.data.jobId}`;
const jobState = async () => ((await (await fetch(jobUrl)).json()) as { data: { state: string } }).data.state;
while ((await jobState()) !== 'running') await new Promise((resolve) => setTimeout(resolve, 20));
const busy = await freshRound(async () => (await jobState()) === 'running');
const busyCli = median(busy.cli);
rows.push(['busy: hb-subset CLI spawn, fresh 20 chars (reference)', hbSubset ? ms(busyCli) : 'not installed']);
rows.push(['busy: preview, fresh 20 chars (call answers with the WOFF2)', against(median(busy.embedded), busyCli)]);
rows.push(['busy: preview, fresh 20 chars (call, then GET of the WOFF2)', against(median(busy.byPath), busyCli)]);
const busyAgain: number[] = [];
const busyFloor: number[] = [];
for (let i = 0; i < RUNS; i++) {
  busyAgain.push(await embedded(repeatedText));
  busyFloor.push(await healthz());
}
rows.push(['busy: GET /healthz (reference)', ms(median(busyFloor))]);
rows.push([
  'busy: preview, repeated (call answers with the WOFF2)',
  `${ms(median(busyAgain))}  (${(median(busyAgain) / median(busyFloor)).toFixed(2)}× /healthz)`,
]);
fs.rmSync(cliOut, { force: true });
// A job left running would be taken up again by the next start on this data folder.
while (['queued', 'running'].includes(await jobState())) await new Promise((resolve) => setTimeout(resolve, 500));
server.kill('SIGTERM');

// The steps inside a preview worker, in this process.
const a20 = [...freshText(20)].map((ch) => ch.codePointAt(0) ?? 0);
const face = loadSubsetFace(bytes);
face.subset(a20);
face.preprocess();
for (let i = 0; i < 5; i++) face.subset(a20);
const subsetTimes: number[] = [];
const woffTimes: number[] = [];
for (let i = 0; i < 40; i++) {
  const started = performance.now();
  const ttf = face.subset(a20);
  subsetTimes.push(performance.now() - started);
  const encoded = performance.now();
  encodeWoff2Fast(ttf, 5);
  woffTimes.push(performance.now() - encoded);
}
face.destroy();
rows.push(['step: subset (harfbuzzjs, preprocessed face), 20 chars', `${median(subsetTimes).toFixed(3)} ms`]);
rows.push(['step: fast WOFF2 (Brotli q5, null transform), 20 chars', `${median(woffTimes).toFixed(3)} ms`]);

console.log(
  `Live previews, ${GNO} (${(bytes.byteLength / 1024 / 1024).toFixed(1)} MB), median of ${RUNS} calls, load ${os.loadavg()[0]?.toFixed(1)}:`,
);
for (const [label, value] of rows) console.log(`  ${label.padEnd(66)} ${value}`);
