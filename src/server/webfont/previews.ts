import { createHash } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import { LRUCache } from 'lru-cache';
import { gaugeCache } from '../engine/memory-gauges.ts';
import { readSfnt } from '../engine/sfnt.ts';
import { cmapOf } from '../engine/sfnt-info.ts';
import { log } from '../log.ts';
import { type StorageObject, storage } from '../storage/index.ts';
import { subsetPool } from './subset-pool.ts';

// The previews the subset service hands out: made in the preview lane of the pool, kept in memory
// (their WOFF2 bytes, for answers that embed them) and in storage (both files, for answers that
// name their paths, and for the next start).

/** Brotli quality of on-the-fly WOFF2: about 1 ms for a preview, 5–25 % larger than quality 11. */
export const PREVIEW_QUALITY = 5;

/** The font file a preview is cut from. */
export interface PreviewSource {
  fileKey: string;
  sha256: string;
}

/** A preview made or found: its WOFF2 bytes and the characters the font lacks. */
interface Preview {
  /** Storage key of both files, without the extension. */
  key: string;
  woff2: Uint8Array;
  missing: string;
  /** Settles once both files are in storage: true when they are, false when writing failed. */
  stored: Promise<boolean>;
}

/** Memory for recent previews' bytes: thousands of 20-character previews of 5–10 KB each. */
const PREVIEW_MEMORY_BYTES = 64 * 1024 * 1024;
const previews = new LRUCache<string, Preview>({
  maxSize: PREVIEW_MEMORY_BYTES,
  sizeCalculation: (preview) => preview.woff2.byteLength + preview.key.length + preview.missing.length * 4,
});
gaugeCache('previews', previews);
const inFlight = new Map<string, Promise<Preview>>();
const stats = { subsetted: 0, memoryHits: 0, storageHits: 0 };

/** Counters since start: fonts subsetted, answers from memory, answers from storage. */
export function subsetStats(): Readonly<typeof stats> {
  return { ...stats };
}

/** Forgets the previews held in memory (tests, and with the pool at shutdown). */
export function forgetPreviews(): void {
  previews.clear();
}

/** The code points a subset maps; a subset of none of the font's characters has no cmap subtable at all. */
export function mappedCodePoints(ttf: Uint8Array): ReadonlySet<number> {
  try {
    return new Set(cmapOf(readSfnt(ttf)).keys());
  } catch {
    return new Set();
  }
}

/** The characters of `codePoints` a subset lacks (spaces never count: every font draws them blank). */
function missingOf(ttf: Uint8Array, codePoints: number[]): string {
  const mapped = mappedCodePoints(ttf);
  return String.fromCodePoint(...codePoints.filter((cp) => !mapped.has(cp) && cp !== 0x20 && cp !== 0x3000));
}

async function bytesOf(object: StorageObject): Promise<Uint8Array> {
  return object.bytes ?? new Uint8Array(await buffer(object.body));
}

/**
 * A preview kept in storage by an earlier run. The TTF is written before the WOFF2, so a WOFF2
 * found means both are there.
 */
async function storedPreview(key: string, codePoints: number[]): Promise<Preview | undefined> {
  const store = storage();
  const woff2 = await store.get(`${key}.woff2`);
  if (!woff2) return undefined;
  const ttf = await store.get(`${key}.ttf`);
  if (!ttf) {
    woff2.body.destroy();
    return undefined;
  }
  const [woff2Bytes, ttfBytes] = await Promise.all([bytesOf(woff2), bytesOf(ttf)]);
  return { key, woff2: woff2Bytes, missing: missingOf(ttfBytes, codePoints), stored: Promise.resolve(true) };
}

/**
 * Writes a new preview's files: the TTF first, so that a WOFF2 in storage always has its TTF.
 * Subsets can be made again, so they skip the flush to disk that source files get, and the WOFF2
 * stays in memory for the browsers that fetch it by its path.
 */
async function storePreview(key: string, ttf: Uint8Array, woff2: Uint8Array): Promise<void> {
  await storage().put(`${key}.ttf`, ttf, { durable: false });
  await storage().put(`${key}.woff2`, woff2, { durable: false, hot: true });
}

async function findOrMake(file: PreviewSource, codePoints: number[], key: string): Promise<Preview> {
  const workers = subsetPool();
  // A resident face subsets in about a millisecond, sooner than storage answers; a face that would
  // have to be loaded first (tens to hundreds of milliseconds) is worth a look in storage.
  if (!workers.isResident(file.sha256)) {
    const found = await storedPreview(key, codePoints);
    if (found) {
      stats.storageHits++;
      return found;
    }
  }
  stats.subsetted++;
  const output = await workers.run(
    { fontId: file.sha256, key: file.fileKey, codePoints, quality: PREVIEW_QUALITY },
    'preview',
  );
  const preview: Preview = {
    key,
    woff2: output.woff2,
    missing: missingOf(output.ttf, codePoints),
    stored: Promise.resolve(false),
  };
  // The answer does not wait for the files: the bytes are in memory, and an answer that names the
  // files' paths waits for `stored` instead. They are written once the answer is out.
  preview.stored = new Promise<void>((resolve) => setImmediate(resolve))
    .then(() => storePreview(key, output.ttf, output.woff2))
    .then(
      () => true,
      (error: unknown) => {
        log().warn({ err: error, key }, 'a preview subset could not be stored');
        if (previews.peek(key) === preview) previews.delete(key);
        return false;
      },
    );
  return preview;
}

/** The preview of a font for some code points: from memory, from storage, or made now (once). */
export function previewOf(file: PreviewSource, codePoints: number[]): Promise<Preview> {
  const digest = createHash('sha256').update(file.sha256).update(Uint32Array.from(codePoints)).digest('hex');
  const key = `subsets/${file.sha256.slice(0, 16)}/${digest.slice(0, 32)}`;
  const remembered = previews.get(key);
  if (remembered) {
    stats.memoryHits++;
    return Promise.resolve(remembered);
  }
  let running = inFlight.get(key);
  if (!running) {
    running = findOrMake(file, codePoints, key)
      .then((preview) => {
        previews.set(key, preview);
        return preview;
      })
      .finally(() => inFlight.delete(key));
    inFlight.set(key, running);
  }
  return running;
}
