import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { env } from '../env.ts';
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

/** What a worker says of its own accord: a face left its memory. */
export interface EvictedNote {
  evicted: string;
}

/** What a worker is told when it starts. */
export interface SubsetWorkerData {
  faceBudgetBytes: number;
}

/** What a subset produced. */
export interface SubsetOutput {
  ttf: Uint8Array;
  woff2: Uint8Array;
  /** Time the worker spent subsetting and encoding. */
  ms: number;
}

/**
 * Which workers a job goes to. Previews (a few dozen characters for a page of specimens) have
 * workers of their own; everything heavier (web-font slices of hundreds of characters, a whole
 * font's cmap for the glyph grid, one-off faces of submissions and documents) goes to the bulk
 * lane, so a preview never waits behind it.
 */
export type SubsetLane = 'preview' | 'bulk';

// The worker runs from its source file on Node 24 (types stripped), both under the built server
// and in development, so it is found from the project root rather than from this module's URL.
const WORKER_FILE = serverSource('webfont', 'subset-worker.ts');

interface Pending {
  lane: SubsetLane;
  slot: number;
  resolve(reply: SubsetReply): void;
  reject(error: Error): void;
}

interface Lane {
  size: number;
  faceBudgetBytes: number;
  /** Spawned on first use: a server that never cuts slices never starts a bulk worker. */
  workers: Array<Worker | undefined>;
  /** Fonts whose face a worker of the lane holds, as the workers last said. */
  resident: Set<string>;
}

export interface SubsetPoolOptions {
  /** Workers for previews. */
  previewWorkers?: number | undefined;
  /** Workers for everything else. */
  bulkWorkers?: number | undefined;
  /** Memory a preview worker may spend on faces; a bulk worker gets a quarter of it. */
  faceBudgetBytes?: number;
}

const DEFAULT_FACE_BUDGET = 128 * 1024 * 1024;
const MIN_BULK_BUDGET = 64 * 1024 * 1024;

/**
 * Worker threads that subset fonts off the event loop, in two lanes. Within a lane each font
 * always goes to the same worker (chosen by its id), so a face is parsed and preprocessed once and
 * stays in that worker's cache instead of being duplicated in every thread; generic pools such as
 * piscina cannot route so.
 */
export class SubsetPool {
  readonly #lanes: Record<SubsetLane, Lane>;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;

  constructor(options: SubsetPoolOptions = {}) {
    const previewWorkers = options.previewWorkers ?? Math.max(1, Math.min(4, os.availableParallelism() - 1));
    const budget = options.faceBudgetBytes ?? DEFAULT_FACE_BUDGET;
    const lane = (size: number, faceBudgetBytes: number): Lane => ({
      size: Math.max(1, size),
      faceBudgetBytes,
      workers: [],
      resident: new Set(),
    });
    this.#lanes = {
      preview: lane(previewWorkers, budget),
      bulk: lane(options.bulkWorkers ?? 1, Math.max(MIN_BULK_BUDGET, Math.floor(budget / 4))),
    };
    // Preview workers start now, so the first preview does not wait for a thread to boot.
    for (let slot = 0; slot < this.#lanes.preview.size; slot++) this.#worker('preview', slot);
  }

  #worker(laneName: SubsetLane, slot: number): Worker {
    const lane = this.#lanes[laneName];
    const running = lane.workers[slot];
    if (running) return running;
    const workerData: SubsetWorkerData = { faceBudgetBytes: lane.faceBudgetBytes };
    const worker = new Worker(WORKER_FILE, { workerData });
    worker.unref();
    worker.on('message', (message: SubsetReply | EvictedNote) => {
      if ('evicted' in message) {
        lane.resident.delete(message.evicted);
        return;
      }
      const pending = this.#pending.get(message.id);
      if (!pending) return;
      this.#pending.delete(message.id);
      if (message.error !== undefined) pending.reject(new Error(message.error));
      else pending.resolve(message);
    });
    worker.on('error', (error) => {
      // A crashed worker fails what it had in hand and is replaced; the others keep serving.
      for (const [id, pending] of this.#pending) {
        if (pending.lane === laneName && pending.slot === slot) {
          this.#pending.delete(id);
          pending.reject(error);
        }
      }
      for (const fontId of lane.resident) if (hashSlot(fontId, lane.size) === slot) lane.resident.delete(fontId);
      lane.workers[slot] = undefined;
    });
    lane.workers[slot] = worker;
    return worker;
  }

  /** Subsets one font to the given code points in the lane's worker that owns the font. */
  async run(job: Omit<SubsetJob, 'id'>, lane: SubsetLane = 'bulk'): Promise<SubsetOutput> {
    const reply = await this.#send({ ...job, kind: 'subset' }, lane);
    if (!('ttf' in reply)) throw new Error('subset worker answered a subset job without a font');
    // The face stays in the worker's cache until the worker says it left.
    this.#lanes[lane].resident.add(job.fontId);
    return { ttf: reply.ttf, woff2: reply.woff2, ms: reply.ms };
  }

  /** Lists the code points a font maps, sorted (a bulk job: it parses the whole font). */
  async codePoints(job: Omit<CmapJob, 'id' | 'kind'>): Promise<Uint32Array> {
    const reply = await this.#send({ ...job, kind: 'cmap' }, 'bulk');
    if (!('codePoints' in reply)) throw new Error('subset worker answered a cmap job without code points');
    return reply.codePoints;
  }

  /**
   * Whether a worker of the lane holds the font's face, so a subset costs a millisecond rather than
   * a load of the font (tens to hundreds of milliseconds for a CJK face).
   */
  isResident(fontId: string, lane: SubsetLane = 'preview'): boolean {
    return this.#lanes[lane].resident.has(fontId);
  }

  #send(job: Omit<SubsetJob, 'id'> | Omit<CmapJob, 'id'>, laneName: SubsetLane): Promise<SubsetReply> {
    const slot = hashSlot(job.fontId, this.#lanes[laneName].size);
    const worker = this.#worker(laneName, slot);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { lane: laneName, slot, resolve, reject });
      worker.postMessage({ ...job, id });
    });
  }

  /** Stops every worker. */
  async close(): Promise<void> {
    const workers = Object.values(this.#lanes).flatMap((lane) => lane.workers);
    await Promise.all(workers.map((worker) => worker?.terminate()));
  }
}

function hashSlot(fontId: string, slots: number): number {
  let hash = 0;
  for (let i = 0; i < fontId.length; i++) hash = (hash * 31 + fontId.charCodeAt(i)) | 0;
  return Math.abs(hash) % slots;
}

// One pool per process, on globalThis: the page bundle and the start script each load this module,
// and a pool of each would hold its own faces within its own budget.
const SLOT = Symbol.for('font-alliance.subset-pool');
const slot = globalThis as { [SLOT]?: SubsetPool | undefined };

/** The process's pool (previews, web-font slices, glyph grids, documents), made on first use. */
export function subsetPool(): SubsetPool {
  slot[SLOT] ??= new SubsetPool({
    previewWorkers: env().SUBSET_WORKERS,
    faceBudgetBytes: env().SUBSET_FACE_CACHE_MB * 1024 * 1024,
  });
  return slot[SLOT];
}

/** Stops the process's pool; the next use makes a new one. */
export async function closeSubsetWorkers(): Promise<void> {
  const pool = slot[SLOT];
  slot[SLOT] = undefined;
  await pool?.close();
}
