// What hostile traffic does to everyone else: each mix runs against the built server while a
// normal visitor keeps calling /healthz and a list API, and a second client makes a small subset.
// Printed per mix: p50/p99 of those calls against the same calls on the idle server (ratios), the
// server's resident memory growth, and how long the other client's subset took.
//   node tests/bench/abuse.ts
// Starts its own server on a temporary data folder seeded with the fixture fonts.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

const port = 4980 + (process.pid % 15);
const base = `http://127.0.0.1:${port}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'abuse-bench-'));
const server: ChildProcess = spawn(process.execPath, ['scripts/start.ts'], {
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    FONT_SEED: 'fixtures',
    LOG_LEVEL: 'error',
    TOOLS_WORKERS: '1',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
await new Promise<void>((resolve, reject) => {
  server.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  server.stdout?.on('data', (chunk: Buffer) => chunk.toString().includes('is ready at') && resolve());
});

function rssMb(): number {
  const status = fs.readFileSync(`/proc/${server.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** A request whose body is `total` bytes of `chunk`, sent as fast as the server takes it. */
function hostileBody(
  pathname: string,
  contentType: string,
  total: number,
  chunk: Buffer,
  from: string,
): Promise<number> {
  return new Promise((resolve) => {
    const req = http.request(`${base}${pathname}`, {
      method: 'POST',
      headers: { 'content-type': contentType },
      // Each client connects from an address of its own (any 127.x.y.z reaches the loopback).
      localAddress: from,
    });
    let sent = 0;
    const pump = () => {
      while (sent < total) {
        sent += chunk.byteLength;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end();
    };
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve(0));
    pump();
  });
}

/** A JSON call from `from`: its status and body. */
function call(pathname: string, from: string, body?: unknown): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${pathname}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      localAddress: from,
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const VISITOR = '127.0.0.40';
const OTHER = '127.0.0.30';

async function timed(pathname: string): Promise<number> {
  const started = performance.now();
  await call(pathname, VISITOR);
  return performance.now() - started;
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};

/** A visitor's calls during `durationMs`: health checks and a list API, one after another. */
async function visitor(durationMs: number): Promise<{ health: number[]; list: number[] }> {
  const health: number[] = [];
  const list: number[] = [];
  const end = Date.now() + durationMs;
  while (Date.now() < end) {
    health.push(await timed('/healthz'));
    list.push(await timed('/web/api/fontOverride/getFontList?current=1&size=24'));
  }
  return { health, list };
}

const fontId = (
  (await (await fetch(`${base}/web/api/fontOverride/getFontList?current=1&size=1`)).json()) as {
    data: { records: Array<{ childFontResource?: Array<{ id: number }> }> };
  }
).data.records[0]?.childFontResource?.[0]?.id;

/** Another client's small subset, start to finish, in ms. */
async function otherSubset(): Promise<number> {
  const started = performance.now();
  const answer = JSON.parse(
    (await call('/tools/api/subset', OTHER, { source: { fontId }, text: '永和九年', formats: ['woff2'] })).body,
  ) as { data?: { jobId: string }; message: string };
  if (!answer.data) {
    console.log(`  (the other client was refused: ${answer.message})`);
    return Number.NaN;
  }
  for (;;) {
    const job = JSON.parse((await call(`/tools/api/jobs/${answer.data.jobId}`, OTHER)).body) as {
      data: { state: string };
    };
    if (job.data.state === 'done' || job.data.state === 'failed') break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return performance.now() - started;
}

const idle = await visitor(3000);
const idleSubset = await otherSubset();
const MB = 1 << 20;
const mixes: Array<[string, () => Promise<unknown>]> = [
  [
    '4 × 50 MB multipart without its boundary',
    () =>
      Promise.all(
        [1, 2, 3, 4].map((i) =>
          hostileBody(
            '/tools/api/upload',
            'multipart/form-data; boundary=never',
            50 * MB,
            Buffer.alloc(MB, 0x61),
            `127.0.1.${i}`,
          ),
        ),
      ),
  ],
  [
    '4 × 200 MB JSON to /webfont/http',
    () =>
      Promise.all(
        [1, 2, 3, 4].map((i) =>
          hostileBody('/webfont/http', 'application/json', 200 * MB, Buffer.alloc(MB, 0x20), `127.0.2.${i}`),
        ),
      ),
  ],
  [
    '40 conversions from one address',
    () =>
      Promise.all(
        Array.from({ length: 40 }, () =>
          call('/tools/api/convert', '127.0.3.1', { source: { fontId }, formats: ['woff2', 'woff', 'svg'] }).then(
            (answer) => answer.status,
          ),
        ),
      ),
  ],
];

console.log(
  `idle: /healthz p50 ${quantile(idle.health, 0.5).toFixed(1)} ms p99 ${quantile(idle.health, 0.99).toFixed(1)} ms; list p99 ${quantile(idle.list, 0.99).toFixed(1)} ms; subset ${idleSubset.toFixed(0)} ms; RSS ${rssMb().toFixed(0)} MB\n`,
);
for (const [name, attack] of mixes) {
  const before = rssMb();
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMb());
  }, 100);
  const attacking = attack();
  const [during, subset, statuses] = await Promise.all([visitor(4000), otherSubset(), attacking]);
  clearInterval(sampler);
  const h99 = quantile(during.health, 0.99);
  const l99 = quantile(during.list, 0.99);
  console.log(name);
  console.log(`  attacker answers: ${JSON.stringify([...new Set(statuses as number[])])}`);
  console.log(
    `  /healthz p50 ${quantile(during.health, 0.5).toFixed(1)} ms, p99 ${h99.toFixed(1)} ms (${(h99 / Math.max(0.1, quantile(idle.health, 0.99))).toFixed(1)}× idle; target ≤ 100 ms)`,
  );
  console.log(
    `  list API p99 ${l99.toFixed(1)} ms (${(l99 / Math.max(0.1, quantile(idle.list, 0.99))).toFixed(1)}× idle)`,
  );
  console.log(
    `  another client's subset ${subset.toFixed(0)} ms (${(subset / idleSubset).toFixed(1)}× idle; target ≤ 5000 ms)`,
  );
  console.log(
    `  server memory ${before.toFixed(0)} → peak ${peak.toFixed(0)} MB (+${(peak - before).toFixed(0)} MB; target ≤ 100 MB)\n`,
  );
}
server.kill('SIGTERM');
fs.rmSync(dataDir, { recursive: true, force: true });
