// Which faces of the library have which characters, held as one bit per face and code point so that
// "which fonts have all of these 5,000 characters?" is answered in a few milliseconds for every
// face at once (tests/bench/coverage.ts compares it with asking each face's cmap in turn).
//
// Code points below DENSE_LIMIT (the BMP and the supplementary ideographic plane, where CJK lives)
// have a fixed row of `words` 32-bit words; the rare ones above are kept in a Map. A row's bit f is
// set when face f maps the code point. A query walks the rows of the asked characters once and
// counts, per face, the bits that are not set: the characters it lacks.

/** Code points below this have a row in the dense table; planes 0–2 hold all CJK ideographs but Ext G+. */
const DENSE_LIMIT = 0x30000;
/** How many lacking characters an answer names per family. */
export const MISSING_LISTED = 20;

/** One face as the index is built from it. */
export interface CoverageFace {
  /** The gno of the family it belongs to. */
  family: string;
  /** The code points the face maps (any order). */
  codePoints: ArrayLike<number>;
}

/** A family's figure for one question: that of its face lacking the fewest characters. */
export interface FamilyCoverage {
  family: string;
  lacks: number;
  /** The first MISSING_LISTED lacking code points, in the order asked. */
  missing: number[];
}

/** The coverage bits of a fixed set of faces. Immutable once built; rebuild it when the library changes. */
export class CoverageIndex {
  readonly faceCount: number;
  private readonly words: number;
  private readonly dense: Uint32Array;
  private readonly sparse = new Map<number, Uint32Array>();
  private readonly faceFamily: Int32Array;
  private readonly families: string[] = [];
  private readonly fullMask: Uint32Array;
  private readonly empty: Uint32Array;

  constructor(faceCount: number) {
    this.faceCount = faceCount;
    this.words = Math.max(1, Math.ceil(faceCount / 32));
    this.dense = new Uint32Array(DENSE_LIMIT * this.words);
    this.faceFamily = new Int32Array(faceCount).fill(-1);
    this.fullMask = new Uint32Array(this.words);
    for (let face = 0; face < faceCount; face++)
      this.fullMask[face >>> 5] = (this.fullMask[face >>> 5] ?? 0) | (1 << (face & 31));
    this.empty = new Uint32Array(this.words);
  }

  /** Builds an index of these faces, in one pass over their code points. */
  static of(faces: readonly CoverageFace[]): CoverageIndex {
    const index = new CoverageIndex(faces.length);
    for (const [position, face] of faces.entries()) index.setFace(position, face);
    return index;
  }

  /** Records face number `position` (0 ≤ position < faceCount); each face is set once. */
  setFace(position: number, face: CoverageFace): void {
    if (position < 0 || position >= this.faceCount) throw new RangeError(`face ${position} is outside the index`);
    let family = this.families.indexOf(face.family);
    if (family < 0) family = this.families.push(face.family) - 1;
    this.faceFamily[position] = family;
    const word = position >>> 5;
    const bit = 1 << (position & 31);
    const { codePoints } = face;
    for (let i = 0; i < codePoints.length; i++) {
      const cp = codePoints[i] ?? 0;
      if (cp < DENSE_LIMIT) {
        const at = cp * this.words + word;
        this.dense[at] = (this.dense[at] ?? 0) | bit;
      } else {
        let row = this.sparse.get(cp);
        if (!row) {
          row = new Uint32Array(this.words);
          this.sparse.set(cp, row);
        }
        row[word] = (row[word] ?? 0) | bit;
      }
    }
  }

  /** Bytes the bit table holds (for the memory figures in docs/fonts.md). */
  get byteSize(): number {
    return this.dense.byteLength + this.sparse.size * (this.words * 4 + 64);
  }

  /**
   * How many of `codePoints` each family lacks, for every family of the index, with the first
   * lacking ones. A family's figure is its best face's: the one lacking the fewest.
   */
  query(codePoints: readonly number[]): FamilyCoverage[] {
    const faces = this.faceCount;
    const lacks = new Uint32Array(faces);
    // The first MISSING_LISTED lacking characters of each face, MISSING_LISTED slots per face.
    const listed = new Uint32Array(faces * MISSING_LISTED);
    const { words, dense, fullMask } = this;
    for (const cp of codePoints) {
      let row: Uint32Array;
      let base = 0;
      if (cp < DENSE_LIMIT) {
        row = dense;
        base = cp * words;
      } else {
        row = this.sparse.get(cp) ?? this.empty;
      }
      for (let w = 0; w < words; w++) {
        let absent = ~(row[base + w] ?? 0) & (fullMask[w] ?? 0);
        while (absent !== 0) {
          const low = absent & -absent;
          const face = (w << 5) | (31 - Math.clz32(low));
          const count = lacks[face] ?? 0;
          if (count < MISSING_LISTED) listed[face * MISSING_LISTED + count] = cp;
          lacks[face] = count + 1;
          absent ^= low;
        }
      }
    }
    const best = new Int32Array(this.families.length).fill(-1);
    for (let face = 0; face < faces; face++) {
      const family = this.faceFamily[face] ?? -1;
      if (family < 0) continue;
      const current = best[family] ?? -1;
      if (current < 0 || (lacks[face] ?? 0) < (lacks[current] ?? 0)) best[family] = face;
    }
    return this.families.map((family, position) => {
      const face = best[position] ?? -1;
      const count = face < 0 ? codePoints.length : (lacks[face] ?? 0);
      const missing =
        face < 0
          ? codePoints.slice(0, MISSING_LISTED)
          : Array.from(listed.subarray(face * MISSING_LISTED, face * MISSING_LISTED + Math.min(count, MISSING_LISTED)));
      return { family, lacks: count, missing };
    });
  }
}

/** The distinct code points of a text in the order they first appear, whitespace left out. */
export function distinctCharacters(text: string): number[] {
  const seen = new Set<number>();
  const out: number[] = [];
  for (const char of text) {
    if (/\s/u.test(char)) continue;
    const cp = char.codePointAt(0) ?? 0;
    if (seen.has(cp)) continue;
    seen.add(cp);
    out.push(cp);
  }
  return out;
}
