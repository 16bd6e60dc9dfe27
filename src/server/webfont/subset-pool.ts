import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { serverSource } from '../paths.ts';

/** A request to one worker of the pool. */
export interface SubsetJob {
  id: number;
  /** Stable id of the font file (its SHA-256): the face cache key. */
  fontId: string;
  /** Storage key of the TTF/OTF. */
  key: string;
  codePoints: number[];
  /** Brotli quality of the fast WOFF2 (0–11). */
  quality: number;
  kind?: 'subset' | undefined;
}

/** A request for the code points a font maps (its cmap), for the glyph grid of the detail page. */
export interface CmapJob {
  id: number;
  kind: 'cmap';
  fontId: string;
  key: string;
}

/** A worker's answer: the subset as TTF and WOFF2, or the reason it failed. */
export type SubsetReply =
  | { id: number; ttf: Uint8Array; woff2: Uint8Array; ms: number; error?: undefined }
  | { id: number; codePoints: Uint32Array; error?: undefined }
  | { id: number; error: string };

/** What a subset produced. */
export interface SubsetOutput {
  ttf: Uint8Array;
  woff2: Uint8Array;
  /** Time the worker spent subsetting and encoding. */
  ms: number;
}

// The worker runs from its source file on Node 24 (types stripped), both under the built server
// and in development, so it is found from the project root rather than from this module's URL.
const WORKER_FILE = serverSource('webfont', 'subset-worker.ts');

interface Pending {
  slot: number;
  resolve(reply: SubsetReply): void;
  reject(error: Error): void;
}

/**
 * Worker threads that subset fonts off the event loop. Each font always goes to the same worker
 * (chosen by its id), so a face is parsed and preprocessed once and stays in that worker's cache
 * instead of being duplicated in every thread; generic pools such as piscina cannot route so.
 */
export class SubsetPool {
  readonly #workers: Worker[] = [];
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;

  constructor(size = Math.max(1, Math.min(4, os.availableParallelism() - 1))) {
    for (let i = 0; i < size; i++) this.#workers.push(this.#spawn(i));
  }

  #spawn(slot: number): Worker {
    const worker = new Worker(WORKER_FILE);
    worker.unref();
    worker.on('message', (reply: SubsetReply) => {
      const pending = this.#pending.get(reply.id);
      if (!pending) return;
      this.#pending.delete(reply.id);
      if (reply.error !== undefined) pending.reject(new Error(reply.error));
      else pending.resolve(reply);
    });
    worker.on('error', (error) => {
      // A crashed worker fails what it had in hand and is replaced; the others keep serving.
      for (const [id, pending] of this.#pending) {
        if (pending.slot === slot) {
          this.#pending.delete(id);
          pending.reject(error);
        }
      }
      this.#workers[slot] = this.#spawn(slot);
    });
    return worker;
  }

  /** Subsets one font to the given code points in the worker that owns the font. */
  async run(job: Omit<SubsetJob, 'id'>): Promise<SubsetOutput> {
    const reply = await this.#send({ ...job, kind: 'subset' });
    if (!('ttf' in reply)) throw new Error('subset worker answered a subset job without a font');
    return { ttf: reply.ttf, woff2: reply.woff2, ms: reply.ms };
  }

  /** Lists the code points a font maps, sorted, in the worker that owns the font. */
  async codePoints(job: Omit<CmapJob, 'id' | 'kind'>): Promise<Uint32Array> {
    const reply = await this.#send({ ...job, kind: 'cmap' });
    if (!('codePoints' in reply)) throw new Error('subset worker answered a cmap job without code points');
    return reply.codePoints;
  }

  #send(job: Omit<SubsetJob, 'id'> | Omit<CmapJob, 'id'>): Promise<SubsetReply> {
    const slot = hashSlot(job.fontId, this.#workers.length);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { slot, resolve, reject });
      this.#workers[slot]?.postMessage({ ...job, id });
    });
  }

  /** Stops every worker. */
  async close(): Promise<void> {
    await Promise.all(this.#workers.map((worker) => worker.terminate()));
  }
}

function hashSlot(fontId: string, slots: number): number {
  let hash = 0;
  for (let i = 0; i < fontId.length; i++) hash = (hash * 31 + fontId.charCodeAt(i)) | 0;
  return Math.abs(hash) % slots;
}
