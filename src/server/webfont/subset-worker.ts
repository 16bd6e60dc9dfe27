// A worker thread of the subset pool: keeps preprocessed HarfBuzz faces in memory and answers
// subset requests with TTF and fast WOFF2 bytes. Runs on Node 24 directly (types are stripped).
import fs from 'node:fs';
import { buffer } from 'node:stream/consumers';
import { parentPort } from 'node:worker_threads';
import { FaceCache } from '../engine/face-cache.ts';
import { loadSubsetFace, loadSubsetFaceFromFile, type SubsetFace } from '../engine/hb-subset.ts';
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

/** The sorted code points a font maps; fontkit is loaded only when the first such job arrives. */
async function cmapOf(job: CmapJob): Promise<Uint32Array> {
  const object = await storage().get(job.key);
  if (!object) throw new Error(`font file is missing from storage: ${job.key}`);
  const bytes = await buffer(object.body);
  const fontkit = await import('fontkit');
  const font = fontkit.create(bytes) as { characterSet?: number[] };
  // fontkit lists the 0xFFFF end marker of cmap format 4 segments; noncharacters are never real glyphs.
  const real = (font.characterSet ?? []).filter((cp) => (cp & 0xfffe) !== 0xfffe && !(cp >= 0xd800 && cp <= 0xdfff));
  return Uint32Array.from(real).sort();
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
