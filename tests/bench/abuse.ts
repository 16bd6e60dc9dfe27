// What hostile traffic does to everyone else: each mix runs against the built server while a
// normal visitor keeps calling /healthz and a list API, and a second client makes a small subset.
// Printed per mix: p50/p99/max of those calls against the same calls on the idle server (ratios), the
// server's resident memory growth, and how long the other client's subset took.
//   node tests/bench/abuse.ts [mix names…]     (BENCH_PORT picks the server's port)
// Starts its own server on a temporary data folder seeded with the fixture fonts, with one tools
// worker for jobs, as a small node would run. Mixes (all by default): forms, json, slow, fairness.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { sessionOverHttp } from '../helpers/http-account.ts';

const port = Number(process.env['BENCH_PORT'] || 4980 + (process.pid % 15));
const base = `http://127.0.0.1:${port}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'abuse-bench-'));
const chosen = new Set(process.argv.slice(2));
const wanted = (name: string) => chosen.size === 0 || chosen.has(name);
const server: ChildProcess = spawn(process.execPath, ['--import', './tests/bench/loop-delay.ts', 'scripts/start.ts'], {
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    FONT_SEED: 'fixtures',
    LOG_LEVEL: 'error',
    TOOLS_WORKERS: '1',
  },
  stdio: ['ignore', 'pipe', 'pipe'],
});
// The server's own event-loop delays, reported on SIGUSR2 (tests/bench/loop-delay.ts).
let loopReport: ((line: string) => void) | undefined;
server.stderr?.on('data', (chunk: Buffer) => {
  for (const line of chunk.toString().split('\n')) {
    if (line.startsWith('LOOP_DELAY ')) loopReport?.(line.slice('LOOP_DELAY '.length));
    else if (line.trim()) process.stderr.write(`${line}\n`);
  }
});
/** The server's event-loop delay since the last call: max and p99 in ms. */
function loopDelay(): Promise<{ maxMs: number; p99Ms: number }> {
  return new Promise((resolve) => {
    loopReport = (line) => {
      loopReport = undefined;
      resolve(JSON.parse(line) as { maxMs: number; p99Ms: number });
    };
    server.kill('SIGUSR2');
  });
}
await new Promise<void>((resolve, reject) => {
  server.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  server.stdout?.on('data', (chunk: Buffer) => chunk.toString().includes('is ready at') && resolve());
});

/** Stops the server and removes its data, also when the bench fails halfway. */
function stop(): void {
  server.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
}
for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
  process.on(event, (error) => {
    console.error(error);
    stop();
    process.exit(1);
  });
}

function rssMb(): number {
  const status = fs.readFileSync(`/proc/${server.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

const MB = 1 << 20;
const FORM_HEAD = Buffer.from('--b\r\nContent-Disposition: form-data; name="note"\r\n\r\n');

/**
 * A request whose body is `total` bytes of `chunk` after `head`, sent as fast as the server takes it
 * (chunked, so no length warns the server), from its own loopback address. Answers the status, or 0
 * when the connection was cut before an answer.
 */
function hostileBody(
  pathname: string,
  contentType: string,
  total: number,
  chunk: Buffer,
  from: string,
  options: { head?: Buffer; token?: string } = {},
): Promise<number> {
  return new Promise((resolve) => {
    const req = http.request(`${base}${pathname}`, {
      method: 'POST',
      headers: {
        'content-type': contentType,
        ...(options.token ? { 'alliance-authenticate': options.token } : {}),
      },
      // Each client connects from an address of its own (any 127.x.y.z reaches the loopback).
      localAddress: from,
      agent: false,
    });
    let sent = 0;
    let answered = 0;
    const pump = () => {
      while (sent < total && !req.destroyed) {
        sent += chunk.byteLength;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!req.destroyed) req.end();
    };
    req.on('response', (res) => {
      answered = res.statusCode ?? 0;
      res.resume();
      res.on('end', () => resolve(answered));
    });
    req.on('error', () => resolve(answered));
    req.on('close', () => resolve(answered));
    if (options.head) req.write(options.head);
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

// The visitor runs in a thread of its own: the attacks are generated in this thread, and a visitor
// sharing its event loop would measure the bench's own delays along with the server's.
const VISITOR_THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, localAddress: workerData.from });
const timed = (url) => new Promise((resolve, reject) => {
  const started = performance.now();
  http.get(url, { agent }, (res) => { res.resume(); res.on('end', () => resolve(performance.now() - started)); }).on('error', reject);
});
(async () => {
  const health = []; const list = [];
  const end = Date.now() + workerData.durationMs;
  while (Date.now() < end) {
    health.push(await timed(workerData.base + '/healthz'));
    list.push(await timed(workerData.base + '/web/api/fontOverride/getFontList?current=1&size=24'));
    // A probe and a reader, not a load generator: about fifty pairs of calls a second.
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  agent.destroy();
  parentPort.postMessage({ health, list });
})();
`;

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};

/** A visitor's calls during `durationMs`: health checks and a list API, one after another. */
function visitor(durationMs: number): Promise<{ health: number[]; list: number[] }> {
  const thread = new Worker(VISITOR_THREAD, { eval: true, workerData: { base, from: VISITOR, durationMs } });
  return new Promise((resolve, reject) => {
    thread.once('message', resolve);
    thread.once('error', reject);
  });
}

const fontId = (
  (await (await fetch(`${base}/web/api/fontOverride/getFontList?current=1&size=1`)).json()) as {
    data: { records: Array<{ childFontResource?: Array<{ id: number }> }> };
  }
).data.records[0]?.childFontResource?.[0]?.id;

/** The phases of the other client's last subset: accepted, queued until running, running until done (ms). */
let lastPhases = { accepted: 0, queued: 0, running: 0 };

/** Another client's small subset, start to finish, in ms (its phases in `lastPhases`). */
async function otherSubset(from = OTHER): Promise<number> {
  const started = performance.now();
  const answer = JSON.parse(
    (await call('/tools/api/subset', from, { source: { fontId }, text: '永和九年', formats: ['woff2'] })).body,
  ) as { data?: { jobId: string }; message: string };
  if (!answer.data) {
    console.log(`  (the other client was refused: ${answer.message})`);
    return Number.NaN;
  }
  const accepted = performance.now();
  let running = Number.NaN;
  for (;;) {
    const job = JSON.parse((await call(`/tools/api/jobs/${answer.data.jobId}`, from)).body) as {
      data: { state: string };
    };
    if (job.data.state !== 'queued' && Number.isNaN(running)) running = performance.now();
    if (job.data.state === 'done' || job.data.state === 'failed') break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const done = performance.now();
  lastPhases = { accepted: accepted - started, queued: running - accepted, running: done - running };
  return done - started;
}

/** Runs `attack` while the visitor and the other client work; prints what they saw and what memory did. */
async function measure(
  name: string,
  attack: () => Promise<unknown>,
  idle: { health: number[]; list: number[]; subset: number },
  durationMs = 4000,
): Promise<{ h99: number; growth: number; subset: number }> {
  await loopDelay();
  const before = rssMb();
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMb());
  }, 100);
  const attacking = attack();
  const [during, subset, statuses] = await Promise.all([visitor(durationMs), otherSubset(), attacking]);
  clearInterval(sampler);
  peak = Math.max(peak, rssMb());
  const loop = await loopDelay();
  const h99 = quantile(during.health, 0.99);
  const idle99 = Math.max(0.1, quantile(idle.health, 0.99));
  const l99 = quantile(during.list, 0.99);
  const counts = new Map<number, number>();
  for (const status of [statuses].flat(2) as number[]) counts.set(status, (counts.get(status) ?? 0) + 1);
  console.log(name);
  console.log(`  attacker answers: ${[...counts].map(([status, n]) => `${n} × ${status || 'cut off'}`).join(', ')}`);
  console.log(
    `  /healthz p50 ${quantile(during.health, 0.5).toFixed(1)} ms, p99 ${h99.toFixed(1)} ms (${(h99 / idle99).toFixed(1)}× idle), max ${during.health.reduce((a, b) => Math.max(a, b), 0).toFixed(1)} ms`,
  );
  console.log(
    `  list API p99 ${l99.toFixed(1)} ms (${(l99 / Math.max(0.1, quantile(idle.list, 0.99))).toFixed(1)}× idle); server event loop delay p99 ${loop.p99Ms} ms, max ${loop.maxMs} ms`,
  );
  console.log(`  another client's subset ${subset.toFixed(0)} ms (${(subset / idle.subset).toFixed(1)}× idle)`);
  console.log(
    `  server memory ${before.toFixed(0)} → peak ${peak.toFixed(0)} MB (+${(peak - before).toFixed(0)} MB)\n`,
  );
  return { h99, growth: peak - before, subset };
}

/**
 * `count` connections that each send `bytes` of a JSON body at once, then hold it open, unfinished
 * (with `holdMs` 0, a whole body '[]' is sent instead and the answer awaited).
 */
function slowBodies(count: number, bytes: number, addresses: (i: number) => string, holdMs: number) {
  const body = holdMs === 0 ? Buffer.from('[]') : Buffer.alloc(bytes - 1, 0x20);
  return Promise.all(
    Array.from({ length: count }, (_, i) => {
      return new Promise<number>((resolve) => {
        const req = http.request(`${base}/webfont/http`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'content-length': String(holdMs === 0 ? body.byteLength : bytes),
          },
          localAddress: addresses(i),
          agent: false,
        });
        let status = 0;
        req.on('response', (res) => {
          status = res.statusCode ?? 0;
          res.resume();
        });
        req.on('error', () => undefined);
        req.on('close', () => resolve(status));
        if (holdMs === 0) {
          req.end(body);
          return;
        }
        req.write(body);
        // One byte short, held: the body never ends unless the server ends it.
        setTimeout(() => req.destroy(), holdMs);
      });
    }),
  );
}

const token = await sessionOverHttp(base, dataDir, 'abuse-bench@example.com', 'bench password 2026');
// The first subset also starts the tools workers; the idle figure is the median of the five after it,
// made while the visitor calls as it does during every mix.
await otherSubset();
const idleSubsets: number[] = [];
const [idleVisits] = await Promise.all([
  visitor(3000),
  (async () => {
    for (let i = 0; i < 5; i++) idleSubsets.push(await otherSubset());
  })(),
]);
const idle = { ...idleVisits, subset: quantile(idleSubsets, 0.5) };
console.log(
  `machine: ${os.cpus().length} cores, load average ${os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(' ')} at ${new Date().toISOString()}`,
);
console.log(
  `idle subset phases (last): accepted after ${lastPhases.accepted.toFixed(0)} ms, queued ${lastPhases.queued.toFixed(0)} ms, ran ${lastPhases.running.toFixed(0)} ms\nidle: /healthz p50 ${quantile(idle.health, 0.5).toFixed(1)} ms p99 ${quantile(idle.health, 0.99).toFixed(1)} ms; list p99 ${quantile(idle.list, 0.99).toFixed(1)} ms; subset ${idle.subset.toFixed(0)} ms (median of ${idleSubsets.map((ms) => ms.toFixed(0)).join(', ')}); RSS ${rssMb().toFixed(0)} MB\n`,
);

const letters = Buffer.alloc(MB, 0x61);
if (wanted('forms')) {
  await measure(
    'a visitor’s 300 MB form field to dingzhi/move',
    () =>
      hostileBody('/web/api/dingzhi/move', 'multipart/form-data; boundary=b', 300 * MB, letters, '127.0.1.1', {
        head: FORM_HEAD,
      }),
    idle,
  );
  await measure(
    'signed in: 300 MB form fields to notify/read-all and notify/settings',
    () =>
      Promise.all(
        ['/api/v1/web/notify/read-all', '/api/v1/web/notify/settings'].map((pathname, i) =>
          hostileBody(pathname, 'multipart/form-data; boundary=b', 300 * MB, letters, `127.0.1.${2 + i}`, {
            head: FORM_HEAD,
            token,
          }),
        ),
      ),
    idle,
  );
  await measure(
    '4 × 50 MB form fields to dingzhi/move, in parallel',
    () =>
      Promise.all(
        [1, 2, 3, 4].map((i) =>
          hostileBody('/web/api/dingzhi/move', 'multipart/form-data; boundary=b', 50 * MB, letters, `127.0.2.${i}`, {
            head: FORM_HEAD,
          }),
        ),
      ),
    idle,
  );
  await measure(
    'signed in: 4 × 50 MB form fields to notify/settings, in parallel',
    () =>
      Promise.all(
        [1, 2, 3, 4].map((i) =>
          hostileBody(
            '/api/v1/web/notify/settings',
            'multipart/form-data; boundary=b',
            50 * MB,
            letters,
            `127.0.2.${10 + i}`,
            {
              head: FORM_HEAD,
              token,
            },
          ),
        ),
      ),
    idle,
  );
  await measure(
    '4 × 50 MB multipart without its boundary to the upload',
    () =>
      Promise.all(
        [1, 2, 3, 4].map((i) =>
          hostileBody('/tools/api/upload', 'multipart/form-data; boundary=never', 50 * MB, letters, `127.0.3.${i}`),
        ),
      ),
    idle,
  );
}
if (wanted('json')) {
  await measure(
    '4 × 200 MB JSON to /webfont/http',
    () =>
      Promise.all(
        [1, 2, 3, 4].map((i) =>
          hostileBody('/webfont/http', 'application/json', 200 * MB, Buffer.alloc(MB, 0x20), `127.0.4.${i}`),
        ),
      ),
    idle,
  );
}
if (wanted('slow')) {
  // The reference for the two below: as many connections at once, each with a whole small body.
  await measure(
    'reference: 400 connections from 400 addresses at once, each with a whole 2-byte body',
    () => slowBodies(400, 3, (i) => `127.0.${40 + Math.floor(i / 200)}.${(i % 200) + 1}`, 0),
    idle,
    4000,
  );
  await measure(
    '400 connections from 400 addresses, each 1 byte short of 1 MB of JSON, held 20 s',
    () => slowBodies(400, MB, (i) => `127.0.${10 + Math.floor(i / 200)}.${(i % 200) + 1}`, 20_000),
    idle,
    20_000,
  );
  await measure(
    '400 such connections from one address, held 20 s',
    () => slowBodies(400, MB, () => '127.0.20.1', 20_000),
    idle,
    20_000,
  );
}
if (wanted('fairness')) {
  // The machine is shared: each run's reference is measured just before its flood, the same way (the
  // other client's subsets while the visitor calls), so a run is judged against the load of its moment.
  console.log('40 conversions from one address, and another client’s small subset, 7 runs');
  const ratios: number[] = [];
  const healthRatios: number[] = [];
  for (let run = 0; run < 7; run++) {
    // A client of its own each run, so that its hourly tool quota is never what is measured.
    const other = `127.0.31.${run + 1}`;
    const references: number[] = [];
    const [calm] = await Promise.all([
      visitor(2000),
      (async () => {
        for (let i = 0; i < 3; i++) references.push(await otherSubset(other));
      })(),
    ]);
    const reference = quantile(references, 0.5);
    const calm99 = Math.max(0.1, quantile(calm.health, 0.99));
    await loopDelay();
    const flood = Promise.all(
      Array.from({ length: 40 }, () =>
        call('/tools/api/convert', '127.0.30.1', { source: { fontId }, formats: ['woff2', 'woff', 'svg'] }),
      ),
    );
    const [subset, visits, answers] = await Promise.all([otherSubset(other), visitor(3000), flood]);
    const h99 = quantile(visits.health, 0.99);
    // The server's own stall during the flood, to tell it apart from the machine's.
    const loop = await loopDelay();
    ratios.push(subset / reference);
    healthRatios.push(h99 / calm99);
    const accepted = answers
      .filter((answer) => answer.status === 200)
      .map((answer) => (JSON.parse(answer.body) as { data: { jobId: string } }).data.jobId);
    const phases = `accepted after ${lastPhases.accepted.toFixed(0)}, queued ${lastPhases.queued.toFixed(0)}, ran ${lastPhases.running.toFixed(0)}`;
    console.log(
      `  run ${run + 1}: subset ${subset.toFixed(0)} ms against ${reference.toFixed(0)} ms just before (${(subset / reference).toFixed(1)}×; ${(subset / idle.subset).toFixed(1)}× the first idle; ${phases}), /healthz p99 ${h99.toFixed(1)} ms against ${calm99.toFixed(1)} ms (${(h99 / calm99).toFixed(1)}×), server loop max ${loop.maxMs} ms; flood ${accepted.length} accepted, ${answers.length - accepted.length} refused; load ${os.loadavg()[0]?.toFixed(1)}`,
    );
    // The next run starts once the flood's jobs are done, so each run meets a fresh flood.
    for (const id of accepted) {
      for (;;) {
        const job = JSON.parse((await call(`/tools/api/jobs/${id}`, '127.0.30.1')).body) as { data: { state: string } };
        if (job.data.state === 'done' || job.data.state === 'failed') break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }
  console.log(
    `  subset: worst ${Math.max(...ratios).toFixed(1)}×, median ${quantile(ratios, 0.5).toFixed(1)}× its reference; /healthz p99 worst ${Math.max(...healthRatios).toFixed(1)}×, median ${quantile(healthRatios, 0.5).toFixed(1)}× its reference\n`,
  );
}
stop();
