import { BACKGROUND_WORK_NICE, lowPriorityWorker } from '../engine/thread-priority.ts';
import { log } from '../log.ts';
import { serverSource } from '../paths.ts';
import { storage } from '../storage/index.ts';
import type { Woff2Job, Woff2Reply } from './woff2-worker.ts';

// Whole-font WOFF2 downloads, made once per font on the first ask and kept in storage beside the
// fonts (`woff2/<sha>.woff2`): WOFF2 is what a designer puts on a website, at about half a TTF's
// size. Encoding runs in a worker thread of its own, one font at a time, so that it never takes
// both cores from the site; a font asked for again meanwhile waits for the same encoding.

/** The storage key of a font's WOFF2. */
export function woff2Key(sha256: string): string {
  return `woff2/${sha256.slice(0, 32)}.woff2`;
}

const SLOT = Symbol.for('font-alliance.woff2-encodings');
type Slot = { [SLOT]?: { running: Map<string, Promise<void>>; queue: Promise<unknown> } };

function state() {
  const holder = globalThis as Slot;
  holder[SLOT] ??= { running: new Map(), queue: Promise.resolve() };
  return holder[SLOT];
}

async function encode(job: Woff2Job): Promise<void> {
  const worker = lowPriorityWorker(serverSource('fonts', 'woff2-worker.ts'), BACKGROUND_WORK_NICE);
  worker.unref();
  try {
    const reply = await new Promise<Woff2Reply>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`WOFF2 worker exited with ${code}`)));
      worker.postMessage(job);
    });
    if (reply.error !== undefined) throw new Error(reply.error);
  } finally {
    await worker.terminate();
  }
}

/**
 * The size of a font's WOFF2 when it is ready; otherwise starts making it (once) and answers
 * undefined. `wait` resolves when it is made (tests).
 */
export async function woff2Ready(font: { fileKey: string; sha256: string }): Promise<number | undefined> {
  const key = woff2Key(font.sha256);
  const stat = await storage().stat(key);
  if (stat) return stat.size;
  woff2Made(font).catch(() => undefined);
  return undefined;
}

/** Makes a font's WOFF2 unless it exists or is being made; resolves once it is in storage. */
export function woff2Made(font: { fileKey: string; sha256: string }): Promise<void> {
  const slot = state();
  const key = woff2Key(font.sha256);
  let running = slot.running.get(key);
  if (!running) {
    const started = Date.now();
    running = slot.queue
      .catch(() => undefined)
      .then(async () => {
        if (await storage().stat(key)) return;
        await encode({ key: font.fileKey, out: key });
        log().info({ key, ms: Date.now() - started }, 'WOFF2 download made');
      })
      .catch((error: unknown) => {
        log().warn({ err: error, key: font.fileKey }, 'WOFF2 could not be made');
        throw error;
      })
      .finally(() => slot.running.delete(key));
    slot.queue = running;
    slot.running.set(key, running);
  }
  return running;
}
