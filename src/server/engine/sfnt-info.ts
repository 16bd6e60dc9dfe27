import { FontInputError } from './font-errors.ts';
import { type Sfnt, tableOf, viewOf } from './sfnt.ts';

// Small, bounds-checked readers of the tables the tools need to describe and plan a font: the
// glyph count (maxp), the family name (name) and the character map (cmap). A truncated or broken
// table raises FontInputError instead of a RangeError from deep inside a parser.

/** Runs a reader and turns an out-of-bounds read into "the font is corrupt". */
function guarded<T>(what: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof RangeError) throw new FontInputError('corrupt', `${what}: ${error.message}`);
    throw error;
  }
}

/** The number of glyphs (maxp.numGlyphs). */
export function glyphCountOf(font: Sfnt): number {
  const maxp = tableOf(font, 'maxp');
  if (!maxp) throw new FontInputError('corrupt', 'no maxp table');
  return guarded('maxp', () => viewOf(maxp).getUint16(4));
}

// Windows language ids of Chinese name records: zh-CN, zh-SG first (the site is Simplified
// Chinese), then zh-TW, zh-HK, zh-MO, then US English.
const LANGUAGE_PREFERENCE = [0x0804, 0x1004, 0x0404, 0x0c04, 0x1404, 0x0409];

/** The family name a Chinese reader knows the font by: a Chinese record first, else English. */
export function familyNameOf(font: Sfnt): string {
  const name = tableOf(font, 'name');
  if (!name) return '';
  return guarded('name', () => {
    const view = viewOf(name);
    const count = view.getUint16(2);
    const storage = view.getUint16(4);
    const found = new Map<string, string>();
    for (let i = 0; i < count; i++) {
      const record = 6 + i * 12;
      const platform = view.getUint16(record);
      const encoding = view.getUint16(record + 2);
      const language = view.getUint16(record + 4);
      const nameId = view.getUint16(record + 6);
      if (nameId !== 1 && nameId !== 16) continue;
      const length = view.getUint16(record + 8);
      const offset = storage + view.getUint16(record + 10);
      if (offset + length > name.byteLength) continue;
      let text = '';
      if (platform === 3 || platform === 0) {
        for (let k = 0; k + 1 < length; k += 2) text += String.fromCharCode(view.getUint16(offset + k));
      } else if (platform === 1 && encoding === 0 && language === 0) {
        text = String.fromCharCode(...name.subarray(offset, offset + length));
      } else {
        continue;
      }
      const lang = platform === 1 ? 0x0409 : platform === 0 ? 0x0409 : language;
      const key = `${nameId}/${lang}`;
      if (!found.has(key)) found.set(key, text.trim());
    }
    for (const language of LANGUAGE_PREFERENCE) {
      const text = found.get(`16/${language}`) || found.get(`1/${language}`);
      if (text) return text;
    }
    return [...found.values()].find(Boolean) ?? '';
  });
}

/** The character map of a font: code point → glyph id, from its best Unicode subtable. */
export function cmapOf(font: Sfnt): Map<number, number> {
  const cmap = tableOf(font, 'cmap');
  if (!cmap) throw new FontInputError('corrupt', 'no cmap table');
  return guarded('cmap', () => {
    const view = viewOf(cmap);
    const subtables = new Map<string, number>();
    const count = view.getUint16(2);
    for (let i = 0; i < count; i++) {
      const record = 4 + i * 8;
      subtables.set(`${view.getUint16(record)}/${view.getUint16(record + 2)}`, view.getUint32(record + 4));
    }
    const candidates = ['3/10', '0/6', '0/4', '3/1', '0/3', '0/2', '0/1', '0/0', '3/0'];
    for (const key of candidates) {
      const offset = subtables.get(key);
      if (offset === undefined) continue;
      const format = view.getUint16(offset);
      if (format === 12) return readFormat12(view, offset);
      if (format === 4) return readFormat4(view, offset);
    }
    throw new FontInputError('corrupt', 'no Unicode cmap subtable of format 4 or 12');
  });
}

/** Code points that never name a character: surrogates and the noncharacters U+xxFFFE/U+xxFFFF. */
const isCharacter = (cp: number) => (cp & 0xfffe) !== 0xfffe && !(cp >= 0xd800 && cp <= 0xdfff) && cp <= 0x10ffff;

function readFormat12(view: DataView, offset: number): Map<number, number> {
  const map = new Map<number, number>();
  const groups = view.getUint32(offset + 12);
  for (let i = 0; i < groups; i++) {
    const group = offset + 16 + i * 12;
    const start = view.getUint32(group);
    const end = Math.min(view.getUint32(group + 4), 0x10ffff);
    const glyph = view.getUint32(group + 8);
    for (let cp = start; cp <= end; cp++) {
      const id = glyph + (cp - start);
      if (id !== 0 && isCharacter(cp)) map.set(cp, id);
    }
  }
  return map;
}

function readFormat4(view: DataView, offset: number): Map<number, number> {
  const map = new Map<number, number>();
  const segments = view.getUint16(offset + 6) / 2;
  const ends = offset + 14;
  const starts = ends + segments * 2 + 2;
  const deltas = starts + segments * 2;
  const rangeOffsets = deltas + segments * 2;
  for (let s = 0; s < segments; s++) {
    const start = view.getUint16(starts + s * 2);
    const end = view.getUint16(ends + s * 2);
    const delta = view.getInt16(deltas + s * 2);
    const rangeOffset = view.getUint16(rangeOffsets + s * 2);
    for (let cp = start; cp <= end && cp !== 0xffff; cp++) {
      let glyph: number;
      if (rangeOffset === 0) {
        glyph = (cp + delta) & 0xffff;
      } else {
        const raw = view.getUint16(rangeOffsets + s * 2 + rangeOffset + (cp - start) * 2);
        glyph = raw === 0 ? 0 : (raw + delta) & 0xffff;
      }
      if (glyph !== 0 && isCharacter(cp)) map.set(cp, glyph);
    }
  }
  return map;
}

/**
 * The bytes each glyph's outline takes: from loca for TrueType, from the CharStrings INDEX for
 * CFF. The web-font planner uses these to size slices; a font it cannot measure gets an even
 * estimate, which only makes slices less even.
 */
export function glyphSizesOf(font: Sfnt): Uint32Array {
  const count = glyphCountOf(font);
  const sizes = new Uint32Array(count);
  const head = tableOf(font, 'head');
  const loca = tableOf(font, 'loca');
  if (head && loca && tableOf(font, 'glyf')) {
    guarded('loca', () => {
      const long = viewOf(head).getInt16(50) === 1;
      const view = viewOf(loca);
      const at = (i: number) => (long ? view.getUint32(i * 4) : view.getUint16(i * 2) * 2);
      for (let i = 0; i < count; i++) sizes[i] = Math.max(0, at(i + 1) - at(i));
      addComponentSizes(tableOf(font, 'glyf') as Uint8Array, at, sizes);
    });
    return sizes;
  }
  const cff = tableOf(font, 'CFF ');
  const measured = cff ? guarded('CFF', () => cffCharStringSizes(cff, count)) : undefined;
  if (measured) return measured;
  sizes.fill(200);
  return sizes;
}

/**
 * A composite glyph (compatibility ideographs, radicals) is a few bytes of references, but a
 * subset must carry the glyphs it references too: count them in (one level, which covers CJK fonts).
 */
function addComponentSizes(glyf: Uint8Array, offsetOf: (glyph: number) => number, sizes: Uint32Array): void {
  const own = Uint32Array.from(sizes);
  const view = viewOf(glyf);
  for (let glyph = 0; glyph < sizes.length; glyph++) {
    if ((own[glyph] ?? 0) < 10) continue;
    const start = offsetOf(glyph);
    if (view.getInt16(start) >= 0) continue;
    let at = start + 10;
    for (let more = true; more; ) {
      const flags = view.getUint16(at);
      const component = view.getUint16(at + 2);
      sizes[glyph] = (sizes[glyph] ?? 0) + (own[component] ?? 0);
      at += 4 + (flags & 0x1 ? 4 : 2) + (flags & 0x8 ? 2 : flags & 0x40 ? 4 : flags & 0x80 ? 8 : 0);
      more = (flags & 0x20) !== 0;
    }
  }
}

/** Reads a CFF INDEX at `at`; answers its item offsets (absolute) and where it ends. */
function readIndex(cff: Uint8Array, at: number): { offsets: number[]; end: number } {
  const view = viewOf(cff);
  const count = view.getUint16(at);
  if (count === 0) return { offsets: [], end: at + 2 };
  const offSize = cff[at + 2] ?? 1;
  const base = at + 3 + (count + 1) * offSize - 1;
  const offsets: number[] = [];
  for (let i = 0; i <= count; i++) {
    let value = 0;
    for (let k = 0; k < offSize; k++) value = value * 256 + (cff[at + 3 + i * offSize + k] ?? 0);
    offsets.push(base + value);
  }
  return { offsets, end: offsets[count] ?? at };
}

/** The CharStrings offset (operator 17) of the first top DICT. */
function charStringsOffset(dict: Uint8Array): number | undefined {
  const operands: number[] = [];
  for (let i = 0; i < dict.byteLength; ) {
    const b0 = dict[i] ?? 0;
    if (b0 <= 21) {
      let operator = b0;
      i++;
      if (b0 === 12) operator = 1200 + (dict[i++] ?? 0);
      if (operator === 17) return operands.at(-1);
      operands.length = 0;
    } else if (b0 === 28) {
      operands.push(viewOf(dict.subarray(i + 1, i + 3)).getInt16(0));
      i += 3;
    } else if (b0 === 29) {
      operands.push(viewOf(dict.subarray(i + 1, i + 5)).getInt32(0));
      i += 5;
    } else if (b0 === 30) {
      operands.push(0); // a real number; never the CharStrings offset
      i++;
      while (i < dict.byteLength && ((dict[i] ?? 0) & 0x0f) !== 0x0f && ((dict[i] ?? 0) & 0xf0) !== 0xf0) i++;
      i++;
    } else if (b0 >= 32 && b0 <= 246) {
      operands.push(b0 - 139);
      i++;
    } else if (b0 >= 247 && b0 <= 250) {
      operands.push((b0 - 247) * 256 + (dict[i + 1] ?? 0) + 108);
      i += 2;
    } else if (b0 >= 251 && b0 <= 254) {
      operands.push(-(b0 - 251) * 256 - (dict[i + 1] ?? 0) - 108);
      i += 2;
    } else {
      i++;
    }
  }
  return undefined;
}

function cffCharStringSizes(cff: Uint8Array, count: number): Uint32Array | undefined {
  const headerSize = cff[2] ?? 4;
  const names = readIndex(cff, headerSize);
  const topDicts = readIndex(cff, names.end);
  const [start, end] = topDicts.offsets;
  if (start === undefined || end === undefined) return undefined;
  const offset = charStringsOffset(cff.subarray(start, end));
  if (offset === undefined) return undefined;
  const charStrings = readIndex(cff, offset).offsets;
  if (charStrings.length !== count + 1) return undefined;
  const sizes = new Uint32Array(count);
  for (let i = 0; i < count; i++) sizes[i] = (charStrings[i + 1] ?? 0) - (charStrings[i] ?? 0);
  return sizes;
}

/** A font's typographic ascender and descender (OS/2, else hhea) and its units per em. */
export function verticalMetrics(font: Sfnt): { ascender: number; descender: number; unitsPerEm: number } {
  const head = tableOf(font, 'head');
  const os2 = tableOf(font, 'OS/2');
  const hhea = tableOf(font, 'hhea');
  const unitsPerEm = head && head.byteLength >= 20 ? viewOf(head).getUint16(18) || 1000 : 1000;
  if (os2 && os2.byteLength >= 72) {
    return { ascender: viewOf(os2).getInt16(68), descender: viewOf(os2).getInt16(70), unitsPerEm };
  }
  if (hhea && hhea.byteLength >= 8) {
    return { ascender: viewOf(hhea).getInt16(4), descender: viewOf(hhea).getInt16(6), unitsPerEm };
  }
  return { ascender: unitsPerEm * 0.88, descender: -unitsPerEm * 0.12, unitsPerEm };
}
