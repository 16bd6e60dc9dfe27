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
  /** Per drawing, 1 when the reader cannot answer its character. */
  #lacked: Uint8Array;
  /** Each character's drawings, by index. */
  #drawings = new Map<string, number[]>();

  /** `expected`: how many drawings will be added, so the packed bytes are taken once, not grown by copies. */
  constructor(expected = 0) {
    this.#packed = new Uint8Array(expected * PAYLOAD_BYTES);
    this.#lacked = new Uint8Array(expected);
  }

  /** How many drawings (a character in a face) are held. */
  get size(): number {
    return this.#characters.length;
  }

  /** Adds one face's drawing of a character; `lacked`: the reader cannot answer the character. */
  add(character: string, descriptor: Float32Array, lacked = false): void {
    const index = this.#characters.length;
    const at = index * PAYLOAD_BYTES;
    if (at + PAYLOAD_BYTES > this.#packed.length) {
      const grown = new Uint8Array(Math.max(PAYLOAD_BYTES * 256, this.#packed.length * 2));
      grown.set(this.#packed);
      this.#packed = grown;
    }
    if (index >= this.#lacked.length) {
      const grown = new Uint8Array(Math.max(256, this.#lacked.length * 2));
      grown.set(this.#lacked);
      this.#lacked = grown;
    }
    packDescriptor(descriptor, this.#packed, at);
    this.#lacked[index] = lacked ? 1 : 0;
    this.#characters.push(character);
    const drawings = this.#drawings.get(character);
    if (drawings) drawings.push(index);
    else this.#drawings.set(character, [index]);
  }

  /**
   * The `count` characters whose drawings are most like the descriptor, best first. With `sure`, a
   * reading the reader is sure of, only the characters it cannot answer and whose drawings are more
   * like the descriptor than the reading's own (a glyph of 階 read as 隋 is nearer 階's drawings than
   * 隋's; a glyph of 这 read right is nearer 这's than 這's), and only drawings of those are compared.
   */
  nearest(descriptor: Float32Array, count: number, sure?: string): ShapeMatch[] {
    let bar = Number.NEGATIVE_INFINITY;
    if (sure !== undefined) {
      for (const index of this.#drawings.get(sure) ?? [])
        bar = Math.max(bar, similarityToPacked(descriptor, this.#packed, index * PAYLOAD_BYTES));
    }
    const best = new Map<string, number>();
    for (let i = 0; i < this.#characters.length; i++) {
      if (sure !== undefined && !this.#lacked[i]) continue;
      const character = this.#characters[i] as string;
      const similarity = similarityToPacked(descriptor, this.#packed, i * PAYLOAD_BYTES);
      if (similarity > (best.get(character) ?? Number.NEGATIVE_INFINITY)) best.set(character, similarity);
    }
    return [...best]
      .filter(([, similarity]) => similarity > bar)
      .map(([character, similarity]) => ({ character, similarity }))
      .sort((a, b) => b.similarity - a.similarity)
      .slice(0, count);
  }
}
