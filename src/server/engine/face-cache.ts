import { LRUCache } from 'lru-cache';
import type { SubsetFace } from './hb-subset.ts';
import { gaugeCache } from './memory-gauges.ts';

/**
 * Keeps the most recently used subset faces within a byte budget. A preprocessed face costs
 * 150–250 ms to build for a 10 MB CJK font, so popular fonts stay resident and the rest are
 * destroyed (freeing their WASM memory) when the budget is exceeded.
 */
export class FaceCache {
  readonly #faces: LRUCache<string, SubsetFace>;
  readonly #budget: number;
  /** The face being measured again by trim(): taken out and put back, not destroyed. */
  #remeasuring: SubsetFace | undefined;

  /** `onEvict` hears of every face that leaves the cache, so the owner of the worker knows what is resident. */
  constructor(budgetBytes: number, onEvict?: (fontId: string) => void) {
    this.#budget = budgetBytes;
    this.#faces = new LRUCache<string, SubsetFace>({
      maxSize: budgetBytes,
      // A face is counted at no more than the whole budget, so the one just added always stays
      // (the others make room for it) even when it alone is larger.
      sizeCalculation: (face) => Math.min(budgetBytes, Math.max(1, face.size)),
      dispose: (face, fontId) => {
        if (face === this.#remeasuring) return;
        face.destroy();
        onEvict?.(fontId);
      },
    });
    gaugeCache('subset faces', this.#faces);
  }

  /** The face for a font id, marked as most recently used. */
  get(fontId: string): SubsetFace | undefined {
    return this.#faces.get(fontId);
  }

  /** Adds a face and evicts the least recently used ones beyond the budget (never the new one). */
  set(fontId: string, face: SubsetFace): SubsetFace {
    this.#faces.set(fontId, face);
    return face;
  }

  /**
   * Counts the face `keep` again after it grew (preprocessing) and evicts the least recently used
   * others until the budget holds. lru-cache measures an entry when it is added, so the face is
   * taken out (without being destroyed) and added again.
   */
  trim(keep: string): void {
    const face = this.#faces.peek(keep);
    if (!face) return;
    this.#remeasuring = face;
    try {
      this.#faces.delete(keep);
      this.#faces.set(keep, face);
    } finally {
      this.#remeasuring = undefined;
    }
  }

  /** Whether `bytes` more would still fit in the budget without letting any face go. */
  hasRoomFor(bytes: number): boolean {
    return this.#faces.calculatedSize + bytes <= this.#budget;
  }

  /** How many faces are resident. */
  get count(): number {
    return this.#faces.size;
  }
}
