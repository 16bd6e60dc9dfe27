import { tongyongTable } from '../charsets.ts';
import { PAYLOAD_BYTES, packDescriptor, similarityToPacked } from './reference-store.ts';
import { otherForms, type ShapeMatch } from './variants.ts';

// The reader's model lacks most Traditional and Japanese forms (階, 駅, 発) and reads them as a shape
// it knows, often one with no form in common with the glyph (駅 as 默, 敵 as 敲), so the forms of its
// readings (variants.ts) never reach the right character; and it misreads some characters it knows
// as others it knows (遍 as 逼, 農 as 晨). These are the candidates found by shape instead: every
// character of 通用规范汉字表 the reader can answer and every other form of them it cannot, drawn in
// the judging faces and kept as the reference index's packed descriptors (452 bytes each: about 25 MB
// for seven faces, where Float32 would take 96 MB). A glyph's descriptor is compared with all of them
// without unpacking (some 55 000 comparisons, tens of ms, made only when the reader is unsure), and the
// nearest few are weighed by their drawings as the forms are.

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

/**
 * The characters searched by shape for a reader: those of 通用规范汉字表 it can answer (it misreads
 * some of them as another it knows, 遍 as 逼, beyond its first readings) and the other forms of the
 * table's characters that it cannot (駅, 敵; 颶 for 飓, which the table also holds).
 */
export function charactersToSearch(readerKnows: (character: string) => boolean): string[] {
  const found = new Set<string>();
  for (const character of tongyongTable()) {
    if (readerKnows(character)) found.add(character);
    for (const form of otherForms(character)) if (!readerKnows(form)) found.add(form);
  }
  return [...found];
}

/** Descriptors of characters drawn in several faces, searched for the nearest to a glyph's. */
export class FormShapes {
  #characters: string[] = [];
  #packed: Uint8Array;

  /** `expected`: how many drawings will be added, so the packed bytes are taken once, not grown by copies. */
  constructor(expected = 0) {
    this.#packed = new Uint8Array(expected * PAYLOAD_BYTES);
  }

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
      const similarity = similarityToPacked(descriptor, this.#packed, i * PAYLOAD_BYTES);
      if (similarity > (best.get(character) ?? Number.NEGATIVE_INFINITY)) best.set(character, similarity);
    }
    return [...best]
      .map(([character, similarity]) => ({ character, similarity }))
      .sort((a, b) => b.similarity - a.similarity)
      .slice(0, count);
  }
}
