import { viewOf } from './sfnt.ts';

// Rewrites, in place, the glyph ids and nested lookup indices of one slice's GSUB or GPOS lookups
// for the merged font (see slice-layout.ts): it walks every structure of the lookup types that
// holds a glyph id (coverage, class definitions, substitutes, ligatures, pair sets, rules) and
// visits a table shared by several subtables only once.

/** How a slice's ids map into the merged font. */
export interface SliceMapping {
  /** Merged glyph id of local glyph k ≥ 1 is glyphBase + k. */
  glyphBase: number;
  /** Merged index of the slice's lookup i is lookupBase + i (set by mergeLayout). */
  lookupBase: number;
  /** Merged index of the slice's mark glyph set i (GDEF) is markSetBase + i. */
  markSetBase: number;
}

/** Walks a slice's lookup subtables and moves their ids. */
export class Patcher {
  private readonly view: DataView;
  private readonly done = new Set<number>();
  private readonly map: SliceMapping;
  private readonly lookupCount: number;
  constructor(bytes: Uint8Array, map: SliceMapping, lookupCount: number) {
    this.view = viewOf(bytes);
    this.map = map;
    this.lookupCount = lookupCount;
  }
  u16(at: number): number {
    return this.view.getUint16(at);
  }
  private once(at: number): boolean {
    if (this.done.has(at)) return false;
    this.done.add(at);
    return true;
  }
  glyph(at: number): void {
    const id = this.view.getUint16(at);
    if (id !== 0) this.view.setUint16(at, id + this.map.glyphBase);
  }
  glyphs(at: number, count: number): void {
    for (let i = 0; i < count; i++) this.glyph(at + i * 2);
  }
  coverage(at: number): void {
    if (!this.once(at)) return;
    const format = this.u16(at);
    const count = this.u16(at + 2);
    if (format === 1) this.glyphs(at + 4, count);
    else if (format === 2) {
      for (let i = 0; i < count; i++) {
        const range = at + 4 + i * 6;
        if (this.u16(range) === 0 && this.u16(range + 2) > 0) throw new Error('coverage range starts at .notdef');
        this.glyph(range);
        this.glyph(range + 2);
      }
    } else throw new Error(`coverage format ${format}`);
  }
  classDef(at: number): void {
    if (!this.once(at)) return;
    const format = this.u16(at);
    if (format === 1) {
      if (this.u16(at + 2) === 0 && this.u16(at + 4) > 1) throw new Error('class range starts at .notdef');
      this.glyph(at + 2);
    } else if (format === 2) {
      const count = this.u16(at + 2);
      for (let i = 0; i < count; i++) {
        const range = at + 4 + i * 6;
        if (this.u16(range) === 0 && this.u16(range + 2) > 0) throw new Error('class range starts at .notdef');
        this.glyph(range);
        this.glyph(range + 2);
      }
    } else throw new Error(`class definition format ${format}`);
  }
  lookupRecords(at: number, count: number): void {
    for (let i = 0; i < count; i++) {
      const field = at + i * 4 + 2;
      const index = this.u16(field);
      if (index >= this.lookupCount) throw new Error(`nested lookup ${index} out of range`);
      this.view.setUint16(field, index + this.map.lookupBase);
    }
  }
  /** Children at offsets `count` u16 offsets from `table` (relative to it), 0 meaning none. */
  each(table: number, offsets: number, count: number, visit: (at: number) => void): void {
    for (let i = 0; i < count; i++) {
      const offset = this.u16(offsets + i * 2);
      if (offset !== 0) visit(table + offset);
    }
  }
  /** Sequence context (GSUB 5 / GPOS 7). */
  context(at: number): void {
    const format = this.u16(at);
    if (format === 1 || format === 2) {
      this.coverage(at + this.u16(at + 2));
      if (format === 2) this.classDef(at + this.u16(at + 4));
      const sets = format === 1 ? at + 4 : at + 6;
      this.each(at, sets + 2, this.u16(sets), (set) => {
        if (!this.once(set)) return;
        this.each(set, set + 2, this.u16(set), (rule) => {
          if (!this.once(rule)) return;
          const glyphCount = this.u16(rule);
          const records = this.u16(rule + 2);
          if (format === 1) this.glyphs(rule + 4, glyphCount - 1);
          this.lookupRecords(rule + 4 + (glyphCount - 1) * 2, records);
        });
      });
    } else if (format === 3) {
      const glyphCount = this.u16(at + 2);
      const records = this.u16(at + 4);
      for (let i = 0; i < glyphCount; i++) this.coverage(at + this.u16(at + 6 + i * 2));
      this.lookupRecords(at + 6 + glyphCount * 2, records);
    } else throw new Error(`context format ${format}`);
  }
  /** Chained sequence context (GSUB 6 / GPOS 8). */
  chained(at: number): void {
    const format = this.u16(at);
    if (format === 1 || format === 2) {
      this.coverage(at + this.u16(at + 2));
      if (format === 2) for (const k of [4, 6, 8]) if (this.u16(at + k) !== 0) this.classDef(at + this.u16(at + k));
      const sets = format === 1 ? at + 4 : at + 10;
      this.each(at, sets + 2, this.u16(sets), (set) => {
        if (!this.once(set)) return;
        this.each(set, set + 2, this.u16(set), (rule) => {
          if (!this.once(rule)) return;
          let p = rule;
          const backtrack = this.u16(p);
          if (format === 1) this.glyphs(p + 2, backtrack);
          p += 2 + backtrack * 2;
          const input = this.u16(p);
          if (format === 1) this.glyphs(p + 2, input - 1);
          p += 2 + (input - 1) * 2;
          const lookahead = this.u16(p);
          if (format === 1) this.glyphs(p + 2, lookahead);
          p += 2 + lookahead * 2;
          this.lookupRecords(p + 2, this.u16(p));
        });
      });
    } else if (format === 3) {
      let p = at + 2;
      for (let part = 0; part < 3; part++) {
        const count = this.u16(p);
        for (let i = 0; i < count; i++) this.coverage(at + this.u16(p + 2 + i * 2));
        p += 2 + count * 2;
      }
      this.lookupRecords(p + 2, this.u16(p));
    } else throw new Error(`chained context format ${format}`);
  }
  gsub(type: number, at: number): void {
    if (!this.once(at)) return;
    const format = this.u16(at);
    switch (type) {
      case 1:
        this.coverage(at + this.u16(at + 2));
        if (format === 2) this.glyphs(at + 6, this.u16(at + 4));
        return;
      case 2:
      case 3:
        this.coverage(at + this.u16(at + 2));
        this.each(at, at + 6, this.u16(at + 4), (sequence) => {
          if (this.once(sequence)) this.glyphs(sequence + 2, this.u16(sequence));
        });
        return;
      case 4:
        this.coverage(at + this.u16(at + 2));
        this.each(at, at + 6, this.u16(at + 4), (set) => {
          if (!this.once(set)) return;
          this.each(set, set + 2, this.u16(set), (ligature) => {
            if (!this.once(ligature)) return;
            this.glyph(ligature);
            this.glyphs(ligature + 4, this.u16(ligature + 2) - 1);
          });
        });
        return;
      case 5:
        this.context(at);
        return;
      case 6:
        this.chained(at);
        return;
      case 8: {
        this.coverage(at + this.u16(at + 2));
        let p = at + 4;
        for (let part = 0; part < 2; part++) {
          const count = this.u16(p);
          for (let i = 0; i < count; i++) this.coverage(at + this.u16(p + 2 + i * 2));
          p += 2 + count * 2;
        }
        this.glyphs(p + 2, this.u16(p));
        return;
      }
      default:
        throw new Error(`GSUB lookup type ${type}`);
    }
  }
  gpos(type: number, at: number): void {
    if (!this.once(at)) return;
    const format = this.u16(at);
    switch (type) {
      case 1:
      case 3:
        this.coverage(at + this.u16(at + 2));
        return;
      case 2: {
        this.coverage(at + this.u16(at + 2));
        if (format === 2) {
          this.classDef(at + this.u16(at + 8));
          this.classDef(at + this.u16(at + 10));
          return;
        }
        const size = 2 + valueRecordSize(this.u16(at + 4)) + valueRecordSize(this.u16(at + 6));
        this.each(at, at + 10, this.u16(at + 8), (set) => {
          if (!this.once(set)) return;
          const count = this.u16(set);
          for (let i = 0; i < count; i++) this.glyph(set + 2 + i * size);
        });
        return;
      }
      case 4:
      case 5:
      case 6:
        this.coverage(at + this.u16(at + 2));
        this.coverage(at + this.u16(at + 4));
        return;
      case 7:
        this.context(at);
        return;
      case 8:
        this.chained(at);
        return;
      default:
        throw new Error(`GPOS lookup type ${type}`);
    }
  }
}

function valueRecordSize(format: number): number {
  let bits = 0;
  for (let f = format & 0xff; f; f >>= 1) bits += f & 1;
  return bits * 2;
}
