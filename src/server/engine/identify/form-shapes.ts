import { tongyongTable } from '../charsets.ts';
import { DESCRIPTOR_LENGTH, glyphSimilarity } from './features.ts';
import { PAYLOAD_BYTES, packDescriptor, unpackDescriptor } from './reference-store.ts';
import { otherForms, type ShapeMatch } from './variants.ts';

// The reader's model lacks most Traditional and Japanese forms (階, 駅, 発) and reads them as a shape
// it knows, often one with no form in common with the glyph (階 as 隋, 駅 as 职), so the forms of its
// readings (variants.ts) never reach the right character. These are the candidates found by shape
// instead: the other forms of 通用规范汉字表's characters that the reader lacks, drawn once in the
// judging faces and kept as reference descriptors (the index's 452 packed bytes each: about 8 MB for
// seven faces, where Float32 would take 29 MB). A glyph's descriptor is compared with all of them, a
// few thousand dot products, and the nearest few are weighed by their drawings as the forms are.

let forms: string[] | undefined;

/**
 * The other forms (Traditional, Hong Kong, Japanese) of the characters of 通用规范汉字表 that the
 * table itself does not hold, made once: the characters the judging faces draw beyond the table.
 */
export function variantForms(): string[] {
  if (!forms) {
    const table = new Set(tongyongTable());
    const found = new Set<string>();
    for (const character of table) for (const form of otherForms(character)) if (!table.has(form)) found.add(form);
    forms = [...found];
  }
  return forms;
}

let searched: string[] | undefined;

/**
 * The characters searched by shape for a reader: every other form of 通用规范汉字表's characters
 * (some of them in the table, 颶 for 飓) that the reader cannot answer.
 */
export function formsToSearch(readerKnows: (character: string) => boolean): string[] {
  if (!searched) {
    const found = new Set<string>();
    for (const character of tongyongTable()) {
      for (const form of otherForms(character)) if (!readerKnows(form)) found.add(form);
    }
    searched = [...found];
  }
  return searched.filter((character) => !readerKnows(character));
}

/** Descriptors of characters drawn in several faces, searched for the nearest to a glyph's. */
export class FormShapes {
  #characters: string[] = [];
  #packed = new Uint8Array(0);
  readonly #scratch = new Float32Array(DESCRIPTOR_LENGTH);

  /** How many drawings (a character in a face) are held. */
  get size(): number {
    return this.#characters.length;
  }

  /** Adds one face's drawing of a character. */
  add(character: string, descriptor: Float32Array): void {
    const at = this.#characters.length * PAYLOAD_BYTES;
    if (at + PAYLOAD_BYTES > this.#packed.length) {
      const grown = new Uint8Array(Math.max(PAYLOAD_BYTES * 256, this.#packed.length * 2));
      grown.set(this.#packed);
      this.#packed = grown;
    }
    packDescriptor(descriptor, this.#packed, at);
    this.#characters.push(character);
  }

  /** The `count` characters whose drawings are most like the descriptor, best first. */
  nearest(descriptor: Float32Array, count: number): ShapeMatch[] {
    const best = new Map<string, number>();
    for (let i = 0; i < this.#characters.length; i++) {
      const character = this.#characters[i] as string;
      const similarity = glyphSimilarity(descriptor, unpackDescriptor(this.#packed, i * PAYLOAD_BYTES, this.#scratch));
      if (similarity > (best.get(character) ?? Number.NEGATIVE_INFINITY)) best.set(character, similarity);
    }
    return [...best]
      .map(([character, similarity]) => ({ character, similarity }))
      .sort((a, b) => b.similarity - a.similarity)
      .slice(0, count);
  }
}
