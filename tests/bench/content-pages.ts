// Content page benchmark: time to first byte of a cached ISR page against a static file served by
// the same server, and the compressed JavaScript that home and the article pages load.
//   npm start once (to seed the content), stop it, then: node tests/bench/content-pages.ts
// With a URL argument or BENCH_URL (e.g. http://localhost:4321) it measures that running server.
// tests/bench/lighthouse.ts adds Lighthouse's scores for the same pages.
import http from 'node:http';
import { kb, openBenchSite, pageScripts, printRows, samplePages } from './bench-site.ts';

const RUNS = 200;
const BUDGET_BYTES = 40 * 1024;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.95)] ?? Number.NaN;

const site = await openBenchSite(process.argv[2]);
const base = site.base;
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

/**
 * Times each request RUNS times after a warm-up. The requests take turns, so that a busy moment of
 * the machine (other processes share its cores) weighs on every series alike.
 */
async function measure(requests: Array<{ path: string; headers?: Record<string, string> }>): Promise<number[][]> {
  for (let i = 0; i < 20; i++) for (const { path, headers } of requests) await ttfb(path, headers);
  const times = requests.map(() => [] as number[]);
  for (let i = 0; i < RUNS; i++) {
    for (const [index, { path, headers }] of requests.entries()) times[index]?.push((await ttfb(path, headers)).ms);
  }
  return times;
}

const pages = await samplePages(base);
const articlePath = pages.find((page) => page.name === 'news detail')?.path ?? '/news';
const first = await ttfb(articlePath);
const cached = await ttfb(articlePath);
if (cached.cache !== 'HIT') console.warn(`warning: ${articlePath} answered X-Page-Cache: ${cached.cache || 'none'}`);

const html = await (await fetch(`${base}${articlePath}`)).text();
const css = /href="(\/_astro\/[^"]+\.css)"/.exec(html)?.[1] ?? '/favicon.svg';
const encoding = { 'Accept-Encoding': 'br, gzip' };
const [isr = [], isrPlain = [], staticFile = []] = await measure([
  { path: articlePath, headers: encoding },
  { path: articlePath },
  { path: css, headers: encoding },
]);

const rows: Array<[string, string]> = [
  [`${articlePath}: first request (render + store)`, `${first.ms.toFixed(2)} ms (${first.cache})`],
  [`${articlePath}: cached, br`, `median ${median(isr).toFixed(3)} ms, p95 ${p95(isr).toFixed(3)} ms`],
  [`${articlePath}: cached, identity`, `median ${median(isrPlain).toFixed(3)} ms, p95 ${p95(isrPlain).toFixed(3)} ms`],
  [`static ${css}`, `median ${median(staticFile).toFixed(3)} ms, p95 ${p95(staticFile).toFixed(3)} ms`],
  ['cached ISR / static (median)', `${(median(isr) / median(staticFile)).toFixed(2)}× (target ≤ 1.5×)`],
];
for (const { name, path } of pages) {
  const js = await pageScripts(base, path);
  rows.push(
    [`JavaScript of ${name} ${path}: ${js.files} files`, `${kb(js.raw)} raw`],
    [
      '  compressed',
      `${kb(js.served)} as served, ${kb(js.gzip)} gzip, ${kb(js.brotli)} brotli${
        name === 'home' ? '' : ` (target ≤ ${kb(BUDGET_BYTES)})`
      }`,
    ],
    ['  inline scripts', `${kb(js.inlineGzip)} gzip`],
  );
}
printRows(rows);

agent.destroy();
site.stop();
