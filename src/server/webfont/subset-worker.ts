// A worker thread of the subset pool: keeps preprocessed HarfBuzz faces in memory and answers
// subset requests with TTF and fast WOFF2 bytes. Runs on Node 24 directly (types are stripped).
import fs from 'node:fs';
import { buffer } from 'node:stream/consumers';
import { parentPort, workerData } from 'node:worker_threads';
import { FaceCache } from '../engine/face-cache.ts';
import { loadSubsetFace, loadSubsetFaceFromFile, type SubsetFace } from '../engine/hb-subset.ts';
import { tagAt, viewOf } from '../engine/sfnt.ts';
import { cmapOf as readCmap } from '../engine/sfnt-info.ts';
import { encodeWoff2Fast } from '../engine/woff2-fast.ts';
import { storage } from '../storage/index.ts';
import type { CmapJob, EvictedNote, SubsetJob, SubsetReply, SubsetWorkerData } from './subset-pool.ts';

const port = parentPort;
if (!port) throw new Error('subset-worker.ts must run as a worker thread');

const { faceBudgetBytes } = workerData as SubsetWorkerData;
// The pool skips its storage lookup for fonts whose face is here, so it hears when one leaves.
const faces = new FaceCache(faceBudgetBytes, (fontId) => port.postMessage({ evicted: fontId } satisfies EvictedNote));

const loading = new Map<string, Promise<SubsetFace>>();

/** The face of a font, loaded once even when several jobs for it arrive together. */
function face(job: SubsetJob): Promise<SubsetFace> {
  const cached = faces.get(job.fontId);
  if (cached) return Promise.resolve(cached);
  let pending = loading.get(job.fontId);
  if (!pending) {
    pending = (async () => {
      // A font on local storage is read straight into HarfBuzz's heap; one in a bucket is fetched first.
      const file = storage().localFile(job.key);
      if (file && fs.existsSync(file)) return faces.set(job.fontId, loadSubsetFaceFromFile(file));
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
/** Quiet needed before preprocessing starts: a page's burst of previews is not held up by it. */
const PREPROCESS_AFTER_IDLE_MS = 200;

const popular = new Set<string>();
let idleTimer: NodeJS.Timeout | undefined;

/**
 * Preprocesses the faces that keep being asked for (2–10× faster subsets) once the worker has been
 * idle a moment: the 150–250 ms each takes would otherwise sit in front of requests, and a job
 * that arrives meanwhile still waits for it. A face is preprocessed only while its growth (about
 * four times the font) fits the budget: evicting others for it would have them loaded again.
 */
function preprocessWhenIdle(): void {
  clearTimeout(idleTimer);
  if (popular.size === 0) return;
  idleTimer = setTimeout(() => {
    const [fontId] = popular;
    if (fontId === undefined) return;
    popular.delete(fontId);
    const resident = faces.get(fontId);
    if (resident && !resident.preprocessed && faces.hasRoomFor(resident.preprocessedSize - resident.size)) {
      resident.preprocess();
      faces.trim(fontId);
    }
    preprocessWhenIdle();
  }, PREPROCESS_AFTER_IDLE_MS);
  idleTimer.unref();
}

function notePopular(fontId: string): void {
  const resident = faces.get(fontId);
  if (resident && !resident.preprocessed && resident.uses >= PREPROCESS_AFTER_USES) popular.add(fontId);
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
  clearTimeout(idleTimer);
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
    notePopular(job.fontId);
  } catch (error) {
    port.postMessage({
      id: job.id,
      error: error instanceof Error ? error.message : String(error),
    } satisfies SubsetReply);
  } finally {
    preprocessWhenIdle();
  }
});
