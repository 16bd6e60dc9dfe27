// The soak's readers, in a worker thread of their own so that the checking done on the bench's main
// thread (rasterising, comparing pictures) never delays a reader's clock: each loop asks for a
// cached page or list, times it from the request to the last byte, and reports the timings to the
// main thread every few seconds. Reads are cached answers: the budget is a p99 of 10 ms.
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

/** What the readers are started with. */
export interface ReaderSetup {
  base: string;
  /** Reader loops running at once. */
  loops: number;
  /** Pause of each loop between two reads, in ms (a person reading, not a load generator). */
  pauseMs: number;
}

/** What they read and until when, sent once the caches are full (the one message they get). */
export interface ReaderOrder {
  /** Paths of cached reads, each with the kind it is counted under. */
  reads: Array<{ kind: string; path: string }>;
  untilMs: number;
}

/** A batch of timings by kind, and reads that went wrong. */
export interface ReaderReport {
  timings: Record<string, number[]>;
  errors: string[];
}

const setup = workerData as ReaderSetup;
const port = parentPort;
if (!port) throw new Error('soak readers run as a worker thread');

const order = await new Promise<ReaderOrder>((resolve) => port.once('message', resolve));
const agent = new http.Agent({ keepAlive: true, maxSockets: setup.loops });
let pending: ReaderReport = { timings: {}, errors: [] };

function read(path: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(`${setup.base}${path}`, { agent, headers: { 'accept-encoding': 'br, gzip' } }, (response) => {
        response.on('data', () => undefined);
        response.on('end', () => resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }));
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

async function loop(offset: number): Promise<void> {
  for (let i = offset; Date.now() < order.untilMs; i++) {
    const target = order.reads[i % order.reads.length];
    if (!target) return;
    try {
      const { status, ms } = await read(target.path);
      if (status === 200) {
        pending.timings[target.kind] ??= [];
        pending.timings[target.kind]?.push(ms);
      } else pending.errors.push(`${target.path}: ${status}`);
    } catch (error) {
      pending.errors.push(`${target.path}: ${(error as Error).message}`);
    }
    await new Promise((resolve) => setTimeout(resolve, setup.pauseMs));
  }
}

const flush = setInterval(() => {
  port.postMessage(pending);
  pending = { timings: {}, errors: [] };
}, 2_000);
await Promise.all(Array.from({ length: setup.loops }, (_, i) => loop(i * 7)));
clearInterval(flush);
port.postMessage(pending);
agent.destroy();
