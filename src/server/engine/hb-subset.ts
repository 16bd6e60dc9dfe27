import fs from 'node:fs';
import { createRequire } from 'node:module';
import v8 from 'node:v8';
import vm from 'node:vm';
import { isMainThread } from 'node:worker_threads';

// A thin binding to HarfBuzz's hb-subset, compiled to WASM by the harfbuzzjs project. We call it
// directly rather than through `subset-font` because that package copies the font into the WASM
// heap and builds a new face on every call; here a face is loaded once and reused until it is
// evicted. A face that keeps being used is also preprocessed (`hb_subset_preprocess`: 2–4× faster
// subsetting afterwards), but only then: preprocessing a CJK face costs 150–250 ms, while a first
// subset from the plain face costs a few, so a page of first-time previews stays fast.

interface HbExports {
  memory: WebAssembly.Memory;
  malloc(size: number): number;
  free(ptr: number): void;
  hb_blob_create(data: number, length: number, mode: number, userData: number, destroy: number): number;
  hb_blob_destroy(blob: number): void;
  hb_blob_get_length(blob: number): number;
  hb_blob_get_data(blob: number, lengthPtr: number): number;
  hb_face_create(blob: number, index: number): number;
  hb_face_destroy(face: number): void;
  hb_face_reference_blob(face: number): number;
  hb_set_add(set: number, value: number): void;
  hb_set_clear(set: number): void;
  hb_set_invert(set: number): void;
  hb_subset_input_create_or_fail(): number;
  hb_subset_input_destroy(input: number): void;
  hb_subset_input_unicode_set(input: number): number;
  hb_subset_input_set(input: number, setType: number): number;
  hb_subset_preprocess(face: number): number;
  hb_subset_or_fail(face: number, input: number): number;
  hb_face_get_empty(): number;
}

const HB_MEMORY_MODE_READONLY = 1;
/** The first four bytes of a TrueType, OpenType (CFF) or collection file. */
const SFNT_TAGS = new Set(['\0\x01\0\0', 'true', 'OTTO', 'ttcf']);
const HB_SUBSET_SETS_NAME_ID = 4;
const HB_SUBSET_SETS_NAME_LANG_ID = 5;
const HB_SUBSET_SETS_LAYOUT_FEATURE_TAG = 6;

let compiled: WebAssembly.Module | undefined;

/**
 * One instance of the hb-subset WASM module. The published module has a fixed 65 MB heap that
 * cannot grow, and HarfBuzz builds part of a preprocessed face lazily during the first subsets, so
 * two large CJK faces in one heap run out of memory mid-subset. Each face therefore gets its own
 * instance; memory it never touches costs nothing, and the instance goes with the face.
 */
interface Heap {
  api: HbExports;
  faces: number;
}

// What a face costs in memory, measured on the library (10 MB Noto Sans SC, 1.4 MB ZCOOL KuaiLe) by
// the process's RSS: a plain face holds its font and about 6 MB of instance and subsetting work; a
// preprocessed one about four times its font and another 24 MB (60 MB for Noto Sans SC, 29 MB for
// KuaiLe), most of its instance's 65 MB. WebAssembly memory never shrinks, so these are what a face
// keeps resident for as long as its instance lives.
const PLAIN_OVERHEAD_BYTES = 6 << 20;
const PREPROCESSED_SIZE_FACTOR = 4;
const PREPROCESSED_OVERHEAD_BYTES = 24 << 20;

/**
 * A dropped instance's 65 MB stays mapped until the thread's garbage collector finds the instance,
 * and a worker with a small JavaScript heap collects seldom. So in a worker thread a heap left empty
 * is collected at once, after the current task: one full collection of the worker's small heap (a
 * few ms, off the event loop) gives its memory back, and the face cache's budget is what the faces
 * really hold. The main thread is left to its collector: a full collection there would hold every
 * request. V8 offers collection on demand only behind its expose-gc flag, which setFlagsFromString
 * turns on for contexts made afterwards.
 */
let collectGarbage: (() => void) | undefined;
let collectionScheduled = false;

function collectDroppedHeap(): void {
  if (isMainThread || collectionScheduled) return;
  collectionScheduled = true;
  setImmediate(() => {
    collectionScheduled = false;
    if (!collectGarbage) {
      v8.setFlagsFromString('--expose-gc');
      collectGarbage = vm.runInNewContext('gc') as () => void;
    }
    collectGarbage();
  });
}

/** Room a heap must keep free after taking a face, for the subsetting work itself. */
const HEADROOM_BYTES = 12 << 20;

/** Instantiates the hb-subset WASM module (compiled once per thread, about 10 ms per instance). */
function newHeap(): Heap {
  if (!compiled) {
    const require = createRequire(import.meta.url);
    compiled = new WebAssembly.Module(fs.readFileSync(require.resolve('harfbuzzjs/dist/harfbuzz-subset.wasm')));
  }
  const exports = new WebAssembly.Instance(compiled, {}).exports as unknown as HbExports & { _initialize?: () => void };
  exports._initialize?.();
  return { api: exports, faces: 0 };
}

/** How a subset is made beyond its code points. */
export interface SubsetOptions {
  /**
   * Keep every name record in every language. HarfBuzz keeps only name IDs 0–6 in US English by
   * default, which drops a CJK font's Chinese family name; previews do not need it, downloads do.
   */
  keepAllNames?: boolean;
}

/** A font loaded into the WASM heap and preprocessed for repeated subsetting. */
export interface SubsetFace {
  /** Subsets to the given code points; the result is a TTF/OTF of the same flavour as the source. */
  subset(codePoints: Iterable<number>, options?: SubsetOptions): Uint8Array;
  /**
   * Preprocesses the face for faster subsetting, once; keeps the plain face when the heap has no
   * room for the preprocessed one. Call it between requests, not in their way.
   */
  preprocess(): void;
  /** Whether the face has been preprocessed. */
  readonly preprocessed: boolean;
  /** How many subsets the face has made. */
  readonly uses: number;
  /** Frees the WASM memory; the face cannot be used afterwards. */
  destroy(): void;
  /**
   * Bytes the face holds in the WASM heap: the font itself, and once preprocessed the parsed tables
   * too, which measure about three times the font for CJK faces (research/perf.md: 30–35 MB for a
   * 10 MB font).
   */
  readonly size: number;
  /** Bytes the face will hold once preprocessed. */
  readonly preprocessedSize: number;
}

/** Thrown when HarfBuzz cannot read or subset a font. */
export class SubsetError extends Error {
  override name = 'SubsetError';
}

/** Loads a font into one heap, or answers undefined when the heap has no room for it. */
function loadInto(heap: Heap, fontBytes: number, fill: (into: Uint8Array) => void): SubsetFace | undefined {
  const api = heap.api;
  const fontPtr = api.malloc(fontBytes);
  if (fontPtr === 0) return undefined;
  fill(new Uint8Array(api.memory.buffer, fontPtr, fontBytes));
  const blob = api.hb_blob_create(fontPtr, fontBytes, HB_MEMORY_MODE_READONLY, 0, 0);
  let face = api.hb_face_create(blob, 0);
  api.hb_blob_destroy(blob);
  const probe = face === 0 || face === api.hb_face_get_empty() ? 0 : api.malloc(HEADROOM_BYTES);
  if (probe === 0) {
    if (face !== 0) api.hb_face_destroy(face);
    api.free(fontPtr);
    return undefined;
  }
  api.free(probe);
  heap.faces++;
  let destroyed = false;
  let preprocessed = false;
  // Set once preprocessing was tried, so a face without room for it does not try again.
  let triedPreprocessing = false;
  let uses = 0;

  return {
    get size() {
      return preprocessed
        ? fontBytes * PREPROCESSED_SIZE_FACTOR + PREPROCESSED_OVERHEAD_BYTES
        : fontBytes + PLAIN_OVERHEAD_BYTES;
    },
    get preprocessed() {
      return preprocessed;
    },
    get preprocessedSize() {
      return fontBytes * PREPROCESSED_SIZE_FACTOR + PREPROCESSED_OVERHEAD_BYTES;
    },
    get uses() {
      return uses;
    },
    subset(codePoints, options = {}) {
      if (destroyed) throw new SubsetError('face was destroyed');
      const input = api.hb_subset_input_create_or_fail();
      if (input === 0) throw new SubsetError('hb_subset_input_create_or_fail failed');
      let result = 0;
      let resultBlob = 0;
      try {
        const unicodes = api.hb_subset_input_unicode_set(input);
        for (const codePoint of codePoints) api.hb_set_add(unicodes, codePoint);
        const features = api.hb_subset_input_set(input, HB_SUBSET_SETS_LAYOUT_FEATURE_TAG);
        api.hb_set_clear(features);
        api.hb_set_invert(features);
        if (options.keepAllNames) {
          for (const setType of [HB_SUBSET_SETS_NAME_ID, HB_SUBSET_SETS_NAME_LANG_ID]) {
            const set = api.hb_subset_input_set(input, setType);
            api.hb_set_clear(set);
            api.hb_set_invert(set);
          }
        }
        result = api.hb_subset_or_fail(face, input);
        if (result === 0) throw new SubsetError('HarfBuzz could not subset this font');
        resultBlob = api.hb_face_reference_blob(result);
        const length = api.hb_blob_get_length(resultBlob);
        const data = api.hb_blob_get_data(resultBlob, 0);
        if (length === 0) throw new SubsetError('HarfBuzz produced an empty font');
        uses++;
        return new Uint8Array(api.memory.buffer, data, length).slice();
      } finally {
        if (resultBlob !== 0) api.hb_blob_destroy(resultBlob);
        if (result !== 0) api.hb_face_destroy(result);
        api.hb_subset_input_destroy(input);
      }
    },
    preprocess() {
      if (destroyed || triedPreprocessing) return;
      triedPreprocessing = true;
      const ready = api.hb_subset_preprocess(face);
      const probe = ready === 0 || ready === api.hb_face_get_empty() ? 0 : api.malloc(HEADROOM_BYTES);
      if (probe === 0) {
        // No room left to subset with it: the plain face keeps working.
        if (ready !== 0) api.hb_face_destroy(ready);
        return;
      }
      api.free(probe);
      api.hb_face_destroy(face);
      face = ready;
      preprocessed = true;
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      api.hb_face_destroy(face);
      api.free(fontPtr);
      heap.faces--;
      if (heap.faces === 0) collectDroppedHeap();
    },
  };
}

/**
 * Loads a font (TTF or OTF bytes) into a HarfBuzz instance of its own. Every
 * layout feature is kept when subsetting, so CJK punctuation (`halt`, `chws`), vertical forms
 * (`vert`) and kerning survive.
 */
export function loadSubsetFace(font: Uint8Array): SubsetFace {
  checkSfntTag(font);
  const face = loadInto(newHeap(), font.byteLength, (into) => into.set(font));
  if (!face) throw new SubsetError('HarfBuzz could not load this font (too large for its heap, or not a font)');
  return face;
}

/**
 * Loads a font file straight into a HarfBuzz instance of its own, read in place into the instance's
 * heap: no copy of the font passes through JavaScript memory, where a worker's freed 10 MB buffers
 * waited for a collection and then stayed with the allocator (300 MB after 60 previews of random
 * library faces).
 */
export function loadSubsetFaceFromFile(file: string): SubsetFace {
  const handle = fs.openSync(file, 'r');
  try {
    const bytes = fs.fstatSync(handle).size;
    const head = new Uint8Array(4);
    fs.readSync(handle, head, 0, 4, 0);
    checkSfntTag(head);
    const face = loadInto(newHeap(), bytes, (into) => {
      for (let done = 0; done < bytes; ) {
        const read = fs.readSync(handle, into, done, bytes - done, done);
        if (read === 0) throw new SubsetError('the font file ended early');
        done += read;
      }
    });
    if (!face) throw new SubsetError('HarfBuzz could not load this font (too large for its heap, or not a font)');
    return face;
  } finally {
    fs.closeSync(handle);
  }
}

/** HarfBuzz makes an empty face of anything, so the sfnt version is checked first. */
function checkSfntTag(head: Uint8Array): void {
  if (!SFNT_TAGS.has(String.fromCharCode(...head.subarray(0, 4))))
    throw new SubsetError('HarfBuzz can only subset TrueType or OpenType fonts');
}
