import fs from 'node:fs';
import { createRequire } from 'node:module';

// A thin binding to HarfBuzz's hb-subset, compiled to WASM by the harfbuzzjs project. We call it
// directly rather than through `subset-font` because that package copies the font into the WASM
// heap and builds a new face on every call; here a face is loaded once, preprocessed with
// `hb_subset_preprocess` (2–4× faster subsetting afterwards) and reused until it is evicted.

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

/** A font loaded into the WASM heap and preprocessed for repeated subsetting. */
export interface SubsetFace {
  /** Subsets to the given code points; the result is a TTF/OTF of the same flavour as the source. */
  subset(codePoints: Iterable<number>): Uint8Array;
  /** Frees the WASM memory; the face cannot be used afterwards. */
  destroy(): void;
  /** Bytes the face holds in the WASM heap (the font itself). */
  readonly size: number;
}

/** Thrown when HarfBuzz cannot read or subset a font. */
export class SubsetError extends Error {
  override name = 'SubsetError';
}

/** Loads and preprocesses a font in one heap, or answers undefined when the heap has no room for it. */
function loadInto(heap: Heap, font: Uint8Array): SubsetFace | undefined {
  const api = heap.api;
  const fontPtr = api.malloc(font.byteLength);
  if (fontPtr === 0) return undefined;
  new Uint8Array(api.memory.buffer, fontPtr, font.byteLength).set(font);
  const blob = api.hb_blob_create(fontPtr, font.byteLength, HB_MEMORY_MODE_READONLY, 0, 0);
  const rawFace = api.hb_face_create(blob, 0);
  api.hb_blob_destroy(blob);
  const face = api.hb_subset_preprocess(rawFace);
  api.hb_face_destroy(rawFace);
  const probe = face === 0 || face === api.hb_face_get_empty() ? 0 : api.malloc(HEADROOM_BYTES);
  if (probe === 0) {
    if (face !== 0) api.hb_face_destroy(face);
    api.free(fontPtr);
    return undefined;
  }
  api.free(probe);
  heap.faces++;
  let destroyed = false;

  return {
    size: font.byteLength,
    subset(codePoints) {
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
        result = api.hb_subset_or_fail(face, input);
        if (result === 0) throw new SubsetError('HarfBuzz could not subset this font');
        resultBlob = api.hb_face_reference_blob(result);
        const length = api.hb_blob_get_length(resultBlob);
        const data = api.hb_blob_get_data(resultBlob, 0);
        if (length === 0) throw new SubsetError('HarfBuzz produced an empty font');
        return new Uint8Array(api.memory.buffer, data, length).slice();
      } finally {
        if (resultBlob !== 0) api.hb_blob_destroy(resultBlob);
        if (result !== 0) api.hb_face_destroy(result);
        api.hb_subset_input_destroy(input);
      }
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      api.hb_face_destroy(face);
      api.free(fontPtr);
      heap.faces--;
    },
  };
}

/**
 * Loads a font (TTF or OTF bytes) into a HarfBuzz instance of its own and preprocesses it. Every
 * layout feature is kept when subsetting, so CJK punctuation (`halt`, `chws`), vertical forms
 * (`vert`) and kerning survive.
 */
export function loadSubsetFace(font: Uint8Array): SubsetFace {
  const face = loadInto(newHeap(), font);
  if (!face) throw new SubsetError('HarfBuzz could not load this font (too large for its heap, or not a font)');
  return face;
}
