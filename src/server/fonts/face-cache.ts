import type { SubsetFace } from './hb-subset.ts';

/**
 * Keeps the most recently used subset faces within a byte budget. A preprocessed face costs
 * 150–250 ms to build for a 10 MB CJK font, so popular fonts stay resident and the rest are
 * destroyed (freeing their WASM memory) when the budget is exceeded.
 */
export class FaceCache {
  readonly #budget: number;
  readonly #faces = new Map<string, SubsetFace>();
  #used = 0;

  constructor(budgetBytes: number) {
    this.#budget = budgetBytes;
  }

  /** The face for a font id, marked as most recently used. */
  get(fontId: string): SubsetFace | undefined {
    const face = this.#faces.get(fontId);
    if (face) {
      this.#faces.delete(fontId);
      this.#faces.set(fontId, face);
    }
    return face;
  }

  /** Adds a face and evicts the least recently used ones beyond the budget (never the new one). */
  set(fontId: string, face: SubsetFace): SubsetFace {
    this.#faces.set(fontId, face);
    this.#used += face.size;
    for (const [id, old] of this.#faces) {
      if (this.#used <= this.#budget || id === fontId) break;
      this.#faces.delete(id);
      this.#used -= old.size;
      old.destroy();
    }
    return face;
  }

  /** How many faces are resident. */
  get count(): number {
    return this.#faces.size;
  }
}
