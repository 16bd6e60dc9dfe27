import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { getEnvironmentData, isMainThread, setEnvironmentData, threadId } from 'node:worker_threads';
import { PROJECT_MANIFEST } from '../../paths.ts';
import { readSfnt } from '../sfnt.ts';
import { readSfntFile } from '../sfnt-file.ts';
import { cmapOf, verticalMetrics } from '../sfnt-info.ts';

// The process's one register of the faces Skia (@napi-rs/canvas) draws text with. Every drawer —
// pixel fonts, word clouds, identification's references, covers, the captcha, specimens — asks
// here for a face and gives it back when done; nothing else calls GlobalFonts.
//
// Why one owner: Skia keeps one font collection per process, shared by every worker thread, and
// keys a registration by its source: removing one registration of a file removes every name that
// file was registered under, in every thread. Drawers that registered and removed faces on their
// own took each other's fonts away mid-drawing, and the text fell back to the system's boxes.
//
// How it holds: a face is known by the SHA-256 of its bytes and registered once under the name
// `face-<sha>`, from a file (Skia then reads the file as it needs glyphs instead of holding a copy of
// the whole font: 28 MB registered eight times cost 18 MB this way against 180 MB from bytes). The
// count of its users lives in a SharedArrayBuffer that every worker thread of the process sees
// (handed over as worker environment data), under a lock, so the last user anywhere unregisters
// it, and a face is never removed while another thread draws with it.

/** A face registered for drawing; `release()` it when done (it stays registered while anyone holds it). */
export interface DrawingFace {
  /** The SHA-256 (hex) of the face's bytes, or of its file's identity when only a path was given. */
  readonly id: string;
  /** The family name to set in `ctx.font` (quoted): it names this face alone. */
  readonly family: string;
  /** Whether the face maps the code point (drawing one it lacks would fall back to another font). */
  has(codePoint: number): boolean;
  /** The code points the face maps, ascending. */
  readonly codePoints: Uint32Array;
  /** The typographic ascender and descender (OS/2, else hhea) and the units per em. */
  readonly metrics: FaceMetrics;
  /** Gives the face back; the last holder in the process unregisters it. Calling it twice is harmless. */
  release(): void;
}

/** A face's vertical metrics, in font units. */
export interface FaceMetrics {
  ascender: number;
  descender: number;
  unitsPerEm: number;
}

/**
 * Where a face's bytes are: a file (a library font on local storage), or bytes in memory (an upload,
 * a font read from a bucket). `sha256` (hex), when the caller knows it, saves hashing the bytes.
 */
export type FaceSource =
  | { path: string; sha256?: string | undefined }
  | { bytes: Uint8Array; sha256?: string | undefined };

const ENVIRONMENT_KEY = 'font-alliance.font-registry';
/** Faces whose code points and metrics a thread keeps after it let them go, the least used given up first. */
const COVERAGE_CACHED = 256;
/** Live faces at once in the process; a slot is freed when its face's last holder lets go. */
const CAPACITY = 4096;
const SLOT_INTS = 4; // [hash high, hash low, holders, state]
const HEADER_INTS = 4; // [lock, tombstones, …]
const EMPTY = 0;
const LIVE = 1;
const TOMBSTONE = 2;

interface Shared {
  table: Int32Array;
  directory: string;
}

// The module may be loaded twice in one thread (the Astro bundle and the start script each hold a
// copy); the shared table and the per-thread coverage cache hang off globalThis so both copies agree.
const STATE = Symbol.for('font-alliance.font-registry');
interface FaceInfo {
  codePoints: Uint32Array;
  metrics: FaceMetrics;
}
interface ThreadState {
  shared: Shared | undefined;
  coverage: Map<string, FaceInfo>;
  canvas: typeof import('@napi-rs/canvas') | undefined;
  /** Bytes staged by this thread so far, for unique file names. */
  staged: number;
}
const slot = globalThis as { [STATE]?: ThreadState };
slot[STATE] ??= { shared: undefined, coverage: new Map(), canvas: undefined, staged: 0 };
const thread: ThreadState = slot[STATE];

/**
 * Makes the process's table if this is the main thread and it has none yet, so that workers created
 * afterwards share it. Call before `new Worker(…)` of any worker that may draw text.
 */
export function shareFontRegistry(): void {
  shared();
}

function shared(): Shared {
  if (thread.shared) return thread.shared;
  let found = getEnvironmentData(ENVIRONMENT_KEY) as Shared | undefined;
  if (!found) {
    if (!isMainThread) {
      throw new Error('The font registry was not shared with this worker: call shareFontRegistry() before creating it');
    }
    const directory = path.join(os.tmpdir(), `font-registry-${process.pid}`);
    sweepStaleDirectories();
    fs.mkdirSync(directory, { recursive: true });
    process.once('exit', () => fs.rmSync(directory, { recursive: true, force: true }));
    found = {
      table: new Int32Array(new SharedArrayBuffer((HEADER_INTS + CAPACITY * SLOT_INTS) * 4)),
      directory,
    };
    setEnvironmentData(ENVIRONMENT_KEY, found);
  }
  thread.shared = found;
  return found;
}

/** Removes the folders of processes that ended without cleaning up (killed, crashed). */
function sweepStaleDirectories(): void {
  const root = os.tmpdir();
  for (const name of fs.readdirSync(root)) {
    const match = /^font-registry-(\d+)$/.exec(name);
    if (!match || Number(match[1]) === process.pid || isAlive(Number(match[1]))) continue;
    fs.rmSync(path.join(root, name), { recursive: true, force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function canvas(): typeof import('@napi-rs/canvas') {
  // Loaded from the project at run time: the Astro server bundle must not try to inline a native add-on.
  thread.canvas ??= createRequire(PROJECT_MANIFEST)('@napi-rs/canvas') as typeof import('@napi-rs/canvas');
  return thread.canvas;
}

function lock(table: Int32Array): void {
  while (Atomics.compareExchange(table, 0, 0, 1) !== 0) Atomics.wait(table, 0, 1, 50);
}

function unlock(table: Int32Array): void {
  Atomics.store(table, 0, 0);
  Atomics.notify(table, 0, 1);
}

/** The slot of a face (its index), or the first free one on its probe path when it has none. */
function findSlot(table: Int32Array, high: number, low: number): { index: number; found: boolean } {
  let free = -1;
  for (let probe = 0; probe < CAPACITY; probe++) {
    const index = ((low >>> 0) + probe) % CAPACITY;
    const base = HEADER_INTS + index * SLOT_INTS;
    const state = table[base + 3];
    if (state === EMPTY) return { index: free >= 0 ? free : index, found: false };
    if (state === TOMBSTONE) {
      if (free < 0) free = index;
    } else if (table[base] === high && table[base + 1] === low) {
      return { index, found: true };
    }
  }
  if (free >= 0) return { index: free, found: false };
  throw new Error(`More than ${CAPACITY} faces are registered for drawing at once`);
}

/** Rebuilds the table without tombstones once they make up half of it (the lock is held). */
function compact(table: Int32Array): void {
  if ((table[1] as number) < CAPACITY / 2) return;
  const live: number[][] = [];
  for (let index = 0; index < CAPACITY; index++) {
    const base = HEADER_INTS + index * SLOT_INTS;
    if (table[base + 3] === LIVE)
      live.push([table[base] as number, table[base + 1] as number, table[base + 2] as number]);
  }
  table.fill(0, HEADER_INTS);
  table[1] = 0;
  for (const [high, low, holders] of live) {
    const { index } = findSlot(table, high as number, low as number);
    table.set([high as number, low as number, holders as number, LIVE], HEADER_INTS + index * SLOT_INTS);
  }
}

function idOf(source: FaceSource): string {
  if (source.sha256) return source.sha256.toLowerCase();
  if ('bytes' in source) return createHash('sha256').update(source.bytes).digest('hex');
  // A file without a known hash is known by where it is, its size and when it last changed.
  const stat = fs.statSync(source.path);
  return createHash('sha256')
    .update(`${path.resolve(source.path)}\0${stat.size}\0${stat.mtimeMs}`)
    .digest('hex');
}

/**
 * Writes a face given as bytes to a file of its own beside the registered ones, before the lock is
 * taken: a 20 MB font takes tens of milliseconds to write, and no other thread (the event loop among
 * them) should wait on the lock for that.
 */
function stage(directory: string, source: FaceSource): string | undefined {
  if (!('bytes' in source)) return undefined;
  const partial = path.join(directory, `${threadId}.${thread.staged++}.partial`);
  fs.writeFileSync(partial, source.bytes);
  return partial;
}

/** Puts the file Skia registers the face from in place: a link to the caller's file, or the bytes. */
function materialise(file: string, source: FaceSource, staged: string | undefined): void {
  fs.rmSync(file, { force: true });
  if ('path' in source) fs.symlinkSync(path.resolve(source.path), file);
  else if (staged) fs.renameSync(staged, file);
  // The face was let go between the look before the lock and the lock: written now, rarely.
  else fs.writeFileSync(file, source.bytes);
}

/** Whether a face is registered now, read without the lock (a hint: the lock decides). */
function isLive(table: Int32Array, high: number, low: number): boolean {
  for (let probe = 0; probe < CAPACITY; probe++) {
    const base = HEADER_INTS + (((low >>> 0) + probe) % CAPACITY) * SLOT_INTS;
    const state = Atomics.load(table, base + 3);
    if (state === EMPTY) return false;
    if (state === LIVE && Atomics.load(table, base) === high && Atomics.load(table, base + 1) === low) return true;
  }
  return false;
}

function infoOf(id: string, source: FaceSource): FaceInfo {
  const cached = thread.coverage.get(id);
  if (cached) {
    thread.coverage.delete(id);
    thread.coverage.set(id, cached);
    return cached;
  }
  const sfnt = 'bytes' in source ? readSfnt(source.bytes) : readSfntFile(source.path, ['cmap', 'head', 'hhea', 'OS/2']);
  const info = { codePoints: Uint32Array.from(cmapOf(sfnt).keys()).sort(), metrics: verticalMetrics(sfnt) };
  thread.coverage.set(id, info);
  // Up to a few hundred faces' code points per thread (about 120 KB for a full CJK face, 20 MB for a
  // library of 164 faces): identification draws the best candidates of every comparison, any face
  // of the library, and reading a face's cmap again costs 5–70 ms where a cached one costs nothing.
  if (thread.coverage.size > COVERAGE_CACHED) thread.coverage.delete(thread.coverage.keys().next().value as string);
  return info;
}

function includes(points: Uint32Array, codePoint: number): boolean {
  let low = 0;
  let high = points.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const value = points[middle] as number;
    if (value === codePoint) return true;
    if (value < codePoint) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

/** What a face maps and its metrics, known without registering it. */
export interface FaceDescription {
  readonly id: string;
  readonly codePoints: Uint32Array;
  readonly metrics: FaceMetrics;
  has(codePoint: number): boolean;
}

/**
 * Describes a face without registering it: for choosing which faces a text needs (and naming a
 * picture by them) before drawing, so a picture already drawn costs no registration.
 */
export function describeFace(source: FaceSource): FaceDescription {
  const id = idOf(source);
  const { codePoints, metrics } = infoOf(id, source);
  return { id, codePoints, metrics, has: (codePoint) => includes(codePoints, codePoint) };
}

/**
 * Registers a face for drawing (or counts one more holder of a face already registered, by any thread
 * of the process) and answers its family name and coverage. Throws when Skia cannot read the font.
 */
export function acquireFace(source: FaceSource): DrawingFace {
  const id = idOf(source);
  const { codePoints, metrics } = infoOf(id, source);
  const { table, directory } = shared();
  const high = Number.parseInt(id.slice(0, 8), 16) | 0;
  const low = Number.parseInt(id.slice(8, 16), 16) | 0;
  const family = `face-${id.slice(0, 24)}`;
  const file = path.join(directory, `${id.slice(0, 24)}.font`);
  let staged = isLive(table, high, low) ? undefined : stage(directory, source);
  lock(table);
  try {
    const { index, found } = findSlot(table, high, low);
    const base = HEADER_INTS + index * SLOT_INTS;
    if (found) {
      table[base + 2] = (table[base + 2] as number) + 1;
    } else {
      materialise(file, source, staged);
      staged = undefined;
      if (!canvas().GlobalFonts.registerFromPath(file, family)) {
        fs.rmSync(file, { force: true });
        throw new Error('The font could not be loaded for drawing');
      }
      if (table[base + 3] === TOMBSTONE) table[1] = (table[1] as number) - 1;
      table.set([high, low, 1, LIVE], base);
    }
  } finally {
    unlock(table);
    if (staged) fs.rmSync(staged, { force: true });
  }
  let held = true;
  return {
    id,
    family,
    codePoints,
    metrics,
    has: (codePoint) => includes(codePoints, codePoint),
    release() {
      if (!held) return;
      held = false;
      releaseSlot(high, low, family, file);
      collectSoon();
    },
  };
}

function releaseSlot(high: number, low: number, family: string, file: string): void {
  const { table } = shared();
  lock(table);
  try {
    const { index, found } = findSlot(table, high, low);
    if (!found) return;
    const base = HEADER_INTS + index * SLOT_INTS;
    const holders = (table[base + 2] as number) - 1;
    if (holders > 0) {
      table[base + 2] = holders;
      return;
    }
    // Skia removes every registration of a file at once, and only by a key this thread holds: it
    // registers the file once more to get one, then removes them all.
    const { GlobalFonts } = canvas();
    const key = GlobalFonts.registerFromPath(file, family);
    if (key) GlobalFonts.remove(key);
    fs.rmSync(file, { force: true });
    table.set([0, 0, 0, TOMBSTONE], base);
    table[1] = (table[1] as number) + 1;
    compact(table);
  } finally {
    unlock(table);
  }
}

/** Quiet before a collection, and the least time between two, in a thread that gave faces back. */
const COLLECT_AFTER_MS = 2_000;
const COLLECT_EVERY_MS = 10_000;
let collection: NodeJS.Timeout | undefined;
let collectedAt = 0;

/**
 * Skia unmaps a removed face's file only once the canvases that drew with it are collected, and
 * until then the pages it drew from stay resident. A canvas is a small object to V8, so a worker's
 * heap can go minutes without the full collection that frees it: under the soak the fonts' pages
 * swung between 100 and 300 MB with it. A worker thread that gave a face back asks for one (at most
 * every 10 s, a few milliseconds for a worker's heap of 30–50 MB) once its drawing is done, when the
 * server runs with `--expose-gc` (`npm start`); never on the main thread, whose heap is larger and
 * whose event loop serves requests.
 */
function collectSoon(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (isMainThread || !gc || collection) return;
  const wait = Math.max(COLLECT_AFTER_MS, collectedAt + COLLECT_EVERY_MS - Date.now());
  collection = setTimeout(() => {
    collection = undefined;
    collectedAt = Date.now();
    gc();
  }, wait);
  collection.unref();
}

/** Runs `draw` with a face held, and gives it back however `draw` ends. */
export async function withFace<T>(source: FaceSource, draw: (face: DrawingFace) => T | Promise<T>): Promise<T> {
  const face = acquireFace(source);
  try {
    return await draw(face);
  } finally {
    face.release();
  }
}

/** How many faces the process holds registered now (for health figures and tests). */
export function registeredFaceCount(): number {
  const { table } = shared();
  let count = 0;
  for (let index = 0; index < CAPACITY; index++) {
    if (table[HEADER_INTS + index * SLOT_INTS + 3] === LIVE) count++;
  }
  return count;
}
