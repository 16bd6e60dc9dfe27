// A worker thread of the subset pool: keeps preprocessed HarfBuzz faces in memory and answers
// subset requests with TTF and fast WOFF2 bytes. Runs on Node 24 directly (types are stripped).
import { buffer } from 'node:stream/consumers';
import { parentPort } from 'node:worker_threads';
import { FaceCache } from '../engine/face-cache.ts';
import { loadSubsetFace, type SubsetFace } from '../engine/hb-subset.ts';
import { tagAt, viewOf } from '../engine/sfnt.ts';
import { cmapOf as readCmap } from '../engine/sfnt-info.ts';
import { encodeWoff2Fast } from '../engine/woff2-fast.ts';
import { env } from '../env.ts';
import { storage } from '../storage/index.ts';
import type { CmapJob, SubsetJob, SubsetReply } from './subset-pool.ts';

const port = parentPort;
if (!port) throw new Error('subset-worker.ts must run as a worker thread');

const faces = new FaceCache(env().SUBSET_FACE_CACHE_MB * 1024 * 1024);

const loading = new Map<string, Promise<SubsetFace>>();

/** The face of a font, loaded once even when several jobs for it arrive together. */
function face(job: SubsetJob): Promise<SubsetFace> {
  const cached = faces.get(job.fontId);
  if (cached) return Promise.resolve(cached);
  let pending = loading.get(job.fontId);
  if (!pending) {
    pending = (async () => {
      const object = await storage().get(job.key);
      if (!object) throw new Error(`font file is missing from storage: ${job.key}`);
      const bytes = new Uint8Array(await buffer(object.body));
      return faces.set(job.fontId, loadSubsetFace(bytes));
    })().finally(() => loading.delete(job.fontId));
    loading.set(job.fontId, pending);
  }
  return pending;
}

/** Subsets from a face this many times before it is worth preprocessing. */
const PREPROCESS_AFTER_USES = 3;

/**
 * Preprocesses a face that keeps being asked for, after the reply has gone out: the 150–250 ms it
 * takes would otherwise sit in front of a request. Jobs that arrive meanwhile wait for it.
 */
function preprocessWhenPopular(fontId: string): void {
  const resident = faces.get(fontId);
  if (!resident || resident.preprocessed || resident.uses < PREPROCESS_AFTER_USES) return;
  setImmediate(() => {
    resident.preprocess();
    faces.trim(fontId);
  });
}

/** Bytes `start`..`end` (inclusive) of a stored object. */
async function readRange(key: string, start: number, end: number): Promise<Uint8Array> {
  const object = await storage().get(key, { range: { start, end } });
  if (!object) throw new Error(`font file is missing from storage: ${key}`);
  return new Uint8Array(await buffer(object.body));
}

/**
 * The sorted code points a font maps. Only the table directory and the cmap table are read (three
 * small range reads, not the 20 MB file), and the table is read by a binary reader, not a
 * whole-font parser, so that listing every face of the library stays quick and light.
 */
async function cmapOf(job: CmapJob): Promise<Uint32Array> {
  const header = viewOf(await readRange(job.key, 0, 11));
  const count = header.getUint16(4);
  const directory = await readRange(job.key, 12, 12 + count * 16 - 1);
  const records = viewOf(directory);
  for (let i = 0; i < count; i++) {
    if (tagAt(directory, i * 16) !== 'cmap') continue;
    const offset = records.getUint32(i * 16 + 8);
    const length = records.getUint32(i * 16 + 12);
    const data = await readRange(job.key, offset, offset + length - 1);
    return Uint32Array.from(readCmap({ flavor: header.getUint32(0), tables: [{ tag: 'cmap', data }] }).keys()).sort();
  }
  throw new Error(`${job.key} has no cmap table`);
}

port.on('message', async (job: SubsetJob | CmapJob) => {
  try {
    if (job.kind === 'cmap') {
      const codePoints = await cmapOf(job);
      port.postMessage({ id: job.id, codePoints } satisfies SubsetReply, [codePoints.buffer as ArrayBuffer]);
      return;
    }
    const started = performance.now();
    const ttf = (await face(job)).subset(job.codePoints);
    const woff2 = encodeWoff2Fast(ttf, job.quality);
    const reply: SubsetReply = { id: job.id, ttf, woff2, ms: performance.now() - started };
    port.postMessage(reply, [ttf.buffer as ArrayBuffer, woff2.buffer as ArrayBuffer]);
    preprocessWhenPopular(job.fontId);
  } catch (error) {
    port.postMessage({
      id: job.id,
      error: error instanceof Error ? error.message : String(error),
    } satisfies SubsetReply);
  }
});
