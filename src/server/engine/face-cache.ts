import type { SubsetFace } from './hb-subset.ts';

/**
 * Keeps the most recently used subset faces within a byte budget. A preprocessed face costs
 * 150–250 ms to build for a 10 MB CJK font, so popular fonts stay resident and the rest are
 * destroyed (freeing their WASM memory) when the budget is exceeded.
 */
export class FaceCache {
  readonly #budget: number;
  readonly #faces = new Map<string, SubsetFace>();

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
    this.trim(fontId);
    return face;
  }

  /**
   * Evicts the least recently used faces until the budget holds again, sparing `keep`. Called after
   * a face grows too (preprocessing), since a face's size is read afresh each time.
   */
  trim(keep?: string): void {
    let used = 0;
    for (const face of this.#faces.values()) used += face.size;
    for (const [id, old] of this.#faces) {
      if (used <= this.#budget) break;
      if (id === keep) continue;
      this.#faces.delete(id);
      used -= old.size;
      old.destroy();
    }
  }

  /** How many faces are resident. */
  get count(): number {
    return this.#faces.size;
  }
}
