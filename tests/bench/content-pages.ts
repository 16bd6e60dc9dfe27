// Content page benchmark: time to first byte of a cached ISR page against a static file served by
// the same server, and the compressed JavaScript an article page loads.
//   npm start once (to seed the content), stop it, then: node tests/bench/content-pages.ts
// With BENCH_URL set (e.g. http://localhost:4321) it measures that running server instead.
import { spawn } from 'node:child_process';
import http from 'node:http';
import zlib from 'node:zlib';

const RUNS = 200;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.95)] ?? Number.NaN;

const port = 4900 + (process.pid % 90);
const base = process.env['BENCH_URL'] ?? `http://localhost:${port}`;
const server = process.env['BENCH_URL']
  ? undefined
  : spawn(process.execPath, ['scripts/start.ts'], {
      env: { ...process.env, PORT: String(port), FONT_SEED: 'none', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
if (server) {
  await new Promise<void>((resolve, reject) => {
    server.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
    server.stdout?.on('data', (chunk: Buffer) => chunk.toString().includes('is ready at') && resolve());
  });
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** Milliseconds until the response headers arrive; the body is read and dropped. */
function ttfb(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ ms: number; status: number; cache: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.get(`${base}${path}`, { agent, headers }, (res) => {
      const ms = performance.now() - started;
      res.resume();
      res.on('end', () =>
        resolve({ ms, status: res.statusCode ?? 0, cache: String(res.headers['x-page-cache'] ?? '') }),
      );
    });
    req.on('error', reject);
  });
}

async function measure(path: string, headers: Record<string, string> = {}): Promise<number[]> {
  for (let i = 0; i < 20; i++) await ttfb(path, headers);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push((await ttfb(path, headers)).ms);
  return times;
}

const page = (await (await fetch(`${base}/web/api/web-wenzhang/selectPage?size=1`)).json()) as {
  data: { records: Array<{ id: number }> };
};
const newsId = page.data.records[0]?.id;
if (!newsId) throw new Error('No news in the database: run npm start once to seed the content');
const articlePath = `/news/${newsId}`;
const first = await ttfb(articlePath);
const cached = await ttfb(articlePath);
if (cached.cache !== 'HIT') console.warn(`warning: ${articlePath} answered X-Page-Cache: ${cached.cache || 'none'}`);

const html = await (await fetch(`${base}${articlePath}`)).text();
const css = /href="(\/_astro\/[^"]+\.css)"/.exec(html)?.[1] ?? '/favicon.svg';
const encoding = { 'Accept-Encoding': 'br, gzip' };
const isr = await measure(articlePath, encoding);
const isrPlain = await measure(articlePath);
const staticFile = await measure(css, encoding);

// Every script the page loads before any interaction: module scripts, preloads, island components
// and renderers, and their static imports, followed recursively.
const seen = new Set<string>();
const queue = [
  ...html.matchAll(/<script[^>]+src="([^"]+)"/g),
  ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g),
  ...html.matchAll(/(?:component|renderer)-url="([^"]+)"/g),
].map((match) => match[1] ?? '');
let raw = 0;
let gzip = 0;
let brotli = 0;
while (queue.length > 0) {
  const src = queue.shift() ?? '';
  if (!src || seen.has(src) || !src.startsWith('/')) continue;
  seen.add(src);
  const code = Buffer.from(await (await fetch(`${base}${src}`)).arrayBuffer());
  raw += code.length;
  gzip += zlib.gzipSync(code, { level: 9 }).length;
  brotli += zlib.brotliCompressSync(code).length;
  for (const match of code.toString().matchAll(/(?:^|[;}\s])import\s*(?:[\w{},*\s$]+from\s*)?["']([^"']+)["']/g)) {
    const target = new URL(match[1] ?? '', `${base}${src}`);
    if (target.origin === base) queue.push(target.pathname);
  }
}
const inline = [...html.matchAll(/<script(?![^>]*src=)[^>]*>([\s\S]*?)<\/script>/g)]
  .map((match) => match[1] ?? '')
  .filter((code) => !/^\s*\{/.test(code));
const inlineBytes = Buffer.from(inline.join('\n'));

const rows: Array<[string, string]> = [
  [`${articlePath}: first request (render + store)`, `${first.ms.toFixed(2)} ms (${first.cache})`],
  [`${articlePath}: cached, br`, `median ${median(isr).toFixed(3)} ms, p95 ${p95(isr).toFixed(3)} ms`],
  [`${articlePath}: cached, identity`, `median ${median(isrPlain).toFixed(3)} ms, p95 ${p95(isrPlain).toFixed(3)} ms`],
  [`static ${css}`, `median ${median(staticFile).toFixed(3)} ms, p95 ${p95(staticFile).toFixed(3)} ms`],
  ['cached ISR / static (median)', `${(median(isr) / median(staticFile)).toFixed(2)}× (target ≤ 1.5×)`],
  [`JavaScript of ${articlePath}: ${seen.size} files`, `${(raw / 1024).toFixed(1)} KB raw`],
  ['  compressed', `${(gzip / 1024).toFixed(1)} KB gzip, ${(brotli / 1024).toFixed(1)} KB brotli (target ≤ 40 KB)`],
  ['  inline scripts', `${(zlib.gzipSync(inlineBytes).length / 1024).toFixed(1)} KB gzip`],
];
const width = Math.max(...rows.map(([label]) => label.length));
for (const [label, value] of rows) console.log(`${label.padEnd(width)}  ${value}`);

agent.destroy();
server?.kill('SIGTERM');
