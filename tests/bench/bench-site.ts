// What the content benchmarks share: a built server to measure (started here, or named by a URL),
// the sample pages (home and one detail of each kind), and the JavaScript a page loads.
import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import zlib from 'node:zlib';

/** A server under measurement; `stop` ends it when this process started it. */
export interface BenchSite {
  base: string;
  stop(): void;
}

/**
 * The site to measure: `url` (a command-line argument) or BENCH_URL when given, else the built
 * server started here on a free port from the seeded data folder (DATA_DIR as usual), with `env` added.
 */
export async function openBenchSite(
  url = process.env['BENCH_URL'],
  env: Record<string, string> = {},
): Promise<BenchSite> {
  if (url) return { base: url.replace(/\/$/, ''), stop: () => undefined };
  const port = 4900 + (process.pid % 90);
  const server: ChildProcess = spawn(process.execPath, ['scripts/start.ts'], {
    env: { ...process.env, PORT: String(port), FONT_SEED: 'none', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    server.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
    server.stdout?.on('data', (chunk: Buffer) => chunk.toString().includes('is ready at') && resolve());
  });
  return { base: `http://localhost:${port}`, stop: () => server.kill('SIGTERM') };
}

async function firstId(base: string, api: string): Promise<number> {
  const answer = (await (await fetch(`${base}${api}`)).json()) as { data?: { records?: Array<{ id: number }> } };
  const id = answer.data?.records?.[0]?.id;
  if (!id) throw new Error(`${api} lists nothing: run npm start once to seed the content`);
  return id;
}

/** Home and the first news, encyclopedia and album detail pages of the site. */
export async function samplePages(base: string): Promise<Array<{ name: string; path: string }>> {
  const [news, baike, album] = await Promise.all([
    firstId(base, '/web/api/web-wenzhang/selectPage?size=1'),
    firstId(base, '/web/api/shufa-baike/selectPage?size=1'),
    firstId(base, '/web/api/web-font-collection/selectPage?size=1'),
  ]);
  return [
    { name: 'home', path: '/' },
    { name: 'news detail', path: `/news/${news}` },
    { name: 'baike detail', path: `/baike/${baike}` },
    { name: 'album detail', path: `/album/${album}` },
  ];
}

/** Bytes on the wire for a same-origin file asked for with `Accept-Encoding: br, gzip` (and `headers`). */
function servedBytes(url: string, headers: Record<string, string> = {}): Promise<{ body: Buffer; wire: number }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'Accept-Encoding': 'br, gzip', ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const wire = Buffer.concat(chunks);
          const encoding = res.headers['content-encoding'];
          const body =
            encoding === 'br' ? zlib.brotliDecompressSync(wire) : encoding === 'gzip' ? zlib.gunzipSync(wire) : wire;
          resolve({ body, wire: wire.length });
        });
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** The JavaScript a page loads before any interaction, in bytes. */
export interface PageScripts {
  files: number;
  raw: number;
  /** As this server sends it to a browser that accepts Brotli. */
  served: number;
  gzip: number;
  brotli: number;
  /** Inline scripts other than JSON data, gzip-compressed as part of the page. */
  inlineGzip: number;
}

/**
 * Every script a page loads before any interaction: module scripts, preloads, island components
 * and renderers, and their static imports, followed recursively. Chunks imported on demand (the
 * account forms, for instance) are left out, as a browser leaves them until they are asked for.
 */
export async function pageScripts(
  base: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<PageScripts> {
  const html = (await servedBytes(`${base}${path}`, headers)).body.toString();
  const seen = new Set<string>();
  const queue = [
    ...html.matchAll(/<script[^>]+src="([^"]+)"/g),
    ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g),
    ...html.matchAll(/(?:component|renderer)-url="([^"]+)"/g),
  ].map((match) => match[1] ?? '');
  const totals = { files: 0, raw: 0, served: 0, gzip: 0, brotli: 0 };
  while (queue.length > 0) {
    const src = queue.shift() ?? '';
    if (!src || seen.has(src) || !src.startsWith('/')) continue;
    seen.add(src);
    const { body: code, wire } = await servedBytes(`${base}${src}`);
    totals.files += 1;
    totals.raw += code.length;
    totals.served += wire;
    totals.gzip += zlib.gzipSync(code, { level: 9 }).length;
    totals.brotli += zlib.brotliCompressSync(code).length;
    for (const match of code.toString().matchAll(/(?:^|[;}\s])import\s*(?:[\w{},*\s$]+from\s*)?["']([^"']+)["']/g)) {
      const target = new URL(match[1] ?? '', `${base}${src}`);
      if (target.origin === base) queue.push(target.pathname);
    }
  }
  const inline = [...html.matchAll(/<script(?![^>]*src=)[^>]*>([\s\S]*?)<\/script>/g)]
    .map((match) => match[1] ?? '')
    .filter((code) => !/^\s*\{/.test(code));
  return { ...totals, inlineGzip: zlib.gzipSync(Buffer.from(inline.join('\n'))).length };
}

/** Kilobytes with one decimal. */
export const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;

/** Prints label/value rows with the labels padded to one width. */
export function printRows(rows: Array<[string, string]>): void {
  const width = Math.max(...rows.map(([label]) => label.length));
  for (const [label, value] of rows) console.log(`${label.padEnd(width)}  ${value}`);
}
