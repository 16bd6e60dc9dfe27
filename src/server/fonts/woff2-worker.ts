import { buffer } from 'node:stream/consumers';
import { parentPort } from 'node:worker_threads';
import { encodeWoff2 } from '../engine/woff2.ts';
import { storage } from '../storage/index.ts';

// Encodes one stored font as WOFF2 (Google's encoder, Brotli quality 11) off the main thread: a CJK
// face takes 20–50 s of one core, and is made once, then kept in storage (woff2-downloads.ts).

/** A font to encode: where it is stored and where its WOFF2 goes. */
export interface Woff2Job {
  key: string;
  out: string;
}

/** The WOFF2's size, or why it failed. */
export type Woff2Reply = { size: number; error?: undefined } | { error: string };

const port = parentPort;
if (!port) throw new Error('woff2-worker.ts runs in a worker thread');
// Started below the server's own thread (lowPriorityWorker): seeding and re-encoding happen behind a serving site.

port.on('message', async (job: Woff2Job) => {
  try {
    const object = await storage().get(job.key);
    if (!object) throw new Error(`${job.key} is missing from storage`);
    const woff2 = await encodeWoff2(new Uint8Array(await buffer(object.body)));
    await storage().put(job.out, woff2);
    port.postMessage({ size: woff2.byteLength } satisfies Woff2Reply);
  } catch (error) {
    port.postMessage({ error: error instanceof Error ? error.message : String(error) } satisfies Woff2Reply);
  }
});
