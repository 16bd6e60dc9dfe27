import { FLAVOR_TRUETYPE, readSfnt, type Sfnt, tableOf, viewOf, writeSfnt } from './sfnt.ts';
import { cmapOf } from './sfnt-info.ts';
import { mergeGdef, mergeLayout, type SliceMapping } from './slice-layout.ts';

// Rebuilds a whole font from the slices of a web-font package (each slice a subset of the same
// TrueType font, as cn-font-split, Google Fonts and fontsource cut them). Every slice's glyphs are
// copied byte for byte into one glyf table, in a block of glyph ids of their own (see
// slice-layout.ts for why), its metrics with them; the cmap is the union of the slices' cmaps, a
// character mapped by several slices going to the first that has it; the layout tables are merged
// so that every feature keeps working; the font-wide tables come from the first slice with their
// extremes (bounding box, maxima) taken over all. Tables only Apple's shaper reads (morx, feat…)
// are left out: GSUB carries the same substitutions.

/** A slice as the merger reads it. */
interface Slice {
  font: Sfnt;
  glyphCount: number;
  cmap: Map<number, number>;
  /** The bytes of local glyph k. */
  glyph(k: number): Uint8Array;
  advance(k: number): number;
  sideBearing(k: number): number;
  vertical: { advance(k: number): number; sideBearing(k: number): number } | undefined;
}

/** What a rebuild made, for the seeding log and the checks. */
export interface MergedFont {
  /** The rebuilt TTF. */
  font: Uint8Array;
  /** Code point → merged glyph id. */
  cmap: Map<number, number>;
  glyphCount: number;
  slices: number;
}

/** Tables with no place in the merged font: Apple layout and tool stamps, recomputed or unneeded. */
const LEFT_OUT = new Set(['morx', 'mort', 'feat', 'bsln', 'prop', 'kerx', 'FFTM', 'DSIG', 'LTSH', 'hdmx', 'VDMX']);
/** Tables every slice must share unchanged (hinting programs, grid fitting). */
const SHARED = ['fpgm', 'prep', 'cvt ', 'gasp'];

function required(font: Sfnt, tag: string): Uint8Array {
  const table = tableOf(font, tag);
  if (!table) throw new Error(`a slice has no ${tag} table`);
  return table;
}

function metrics(font: Sfnt, headerTag: string, metricsTag: string, glyphCount: number) {
  const header = tableOf(font, headerTag);
  const table = tableOf(font, metricsTag);
  if (!header || !table) return undefined;
  const count = viewOf(header).getUint16(34);
  const view = viewOf(table);
  if (count === 0 || table.byteLength < count * 4 + (glyphCount - count) * 2) throw new Error(`short ${metricsTag}`);
  return {
    advance: (k: number) => view.getUint16(Math.min(k, count - 1) * 4),
    sideBearing: (k: number) => (k < count ? view.getInt16(k * 4 + 2) : view.getInt16(count * 4 + (k - count) * 2)),
  };
}

function readSlice(bytes: Uint8Array): Slice {
  const font = readSfnt(bytes);
  if (font.flavor !== FLAVOR_TRUETYPE || !tableOf(font, 'glyf')) {
    throw new Error('only TrueType-outline slices can be merged');
  }
  const glyphCount = viewOf(required(font, 'maxp')).getUint16(4);
  const longLoca = viewOf(required(font, 'head')).getInt16(50) === 1;
  const loca = viewOf(required(font, 'loca'));
  const glyf = required(font, 'glyf');
  const offset = (k: number) => (longLoca ? loca.getUint32(k * 4) : loca.getUint16(k * 2) * 2);
  const horizontal = metrics(font, 'hhea', 'hmtx', glyphCount);
  if (!horizontal) throw new Error('a slice has no horizontal metrics');
  return {
    font,
    glyphCount,
    cmap: cmapOf(font),
    glyph: (k) => glyf.subarray(offset(k), offset(k + 1)),
    advance: horizontal.advance,
    sideBearing: horizontal.sideBearing,
    vertical: metrics(font, 'vhea', 'vmtx', glyphCount),
  };
}

/** A glyph's bytes with the glyph ids of its components moved by `base` (simple glyphs unchanged). */
export function movedGlyph(bytes: Uint8Array, base: number): Uint8Array {
  if (bytes.byteLength < 10 || viewOf(bytes).getInt16(0) >= 0 || base === 0) return bytes;
  const out = bytes.slice();
  const view = viewOf(out);
  let at = 10;
  for (;;) {
    const flags = view.getUint16(at);
    view.setUint16(at + 2, view.getUint16(at + 2) + base);
    at += 4 + (flags & 0x0001 ? 4 : 2);
    if (flags & 0x0008) at += 2;
    else if (flags & 0x0040) at += 4;
    else if (flags & 0x0080) at += 8;
    if (!(flags & 0x0020)) break;
  }
  return out;
}

const pad4 = (n: number) => (n + 3) & ~3;

/** A cmap with a format 4 subtable for the BMP (when it fits in 64 KB) and a format 12 one for all. */
export function buildCmap(mapping: Map<number, number>): Uint8Array {
  const entries = [...mapping].sort((a, b) => a[0] - b[0]);
  const groups: Array<[number, number, number]> = [];
  for (const [cp, glyph] of entries) {
    const last = groups.at(-1);
    if (last && last[1] === cp - 1 && last[2] + (cp - last[0]) === glyph) last[1] = cp;
    else groups.push([cp, cp, glyph]);
  }
  const format12 = new Uint8Array(16 + groups.length * 12);
  const v12 = viewOf(format12);
  v12.setUint16(0, 12);
  v12.setUint32(4, format12.byteLength);
  v12.setUint32(12, groups.length);
  groups.forEach(([start, end, glyph], i) => {
    v12.setUint32(16 + i * 12, start);
    v12.setUint32(20 + i * 12, end);
    v12.setUint32(24 + i * 12, glyph);
  });

  // Format 4: runs of consecutive code points; a run whose glyph ids follow on uses idDelta,
  // others list their glyph ids in glyphIdArray.
  const bmp = entries.filter(([cp]) => cp < 0xffff);
  const runs: Array<Array<[number, number]>> = [];
  for (const entry of bmp) {
    const run = runs.at(-1);
    const last = run?.at(-1);
    if (run && last && last[0] === entry[0] - 1) run.push(entry);
    else runs.push([entry]);
  }
  const segments = runs.map((run) => {
    const [first] = run;
    const delta = ((first?.[1] ?? 0) - (first?.[0] ?? 0)) & 0xffff;
    const constant = run.every(([cp, glyph]) => ((glyph - cp) & 0xffff) === delta);
    return {
      start: first?.[0] ?? 0,
      end: run.at(-1)?.[0] ?? 0,
      delta: constant ? delta : 0,
      glyphs: constant ? [] : run,
    };
  });
  segments.push({ start: 0xffff, end: 0xffff, delta: 1, glyphs: [] });
  const segCount = segments.length;
  const arrayLength = segments.reduce((sum, segment) => sum + segment.glyphs.length, 0);
  const length4 = 16 + segCount * 8 + arrayLength * 2;
  let format4: Uint8Array | undefined;
  if (length4 <= 0xffff) {
    format4 = new Uint8Array(length4);
    const v4 = viewOf(format4);
    v4.setUint16(0, 4);
    v4.setUint16(2, length4);
    v4.setUint16(6, segCount * 2);
    let power = 1;
    let selector = 0;
    while (power * 2 <= segCount) {
      power *= 2;
      selector++;
    }
    v4.setUint16(8, power * 2);
    v4.setUint16(10, selector);
    v4.setUint16(12, segCount * 2 - power * 2);
    const ends = 14;
    const starts = ends + segCount * 2 + 2;
    const deltas = starts + segCount * 2;
    const rangeOffsets = deltas + segCount * 2;
    let arrayAt = rangeOffsets + segCount * 2;
    segments.forEach((segment, i) => {
      v4.setUint16(ends + i * 2, segment.end);
      v4.setUint16(starts + i * 2, segment.start);
      v4.setUint16(deltas + i * 2, segment.delta);
      if (segment.glyphs.length > 0) {
        v4.setUint16(rangeOffsets + i * 2, arrayAt - (rangeOffsets + i * 2));
        for (const [, glyph] of segment.glyphs) {
          v4.setUint16(arrayAt, glyph);
          arrayAt += 2;
        }
      }
    });
  }
  const records: Array<[number, number, Uint8Array]> = [];
  // Sorted by platform, then encoding, as the cmap header requires.
  if (format4) records.push([0, 3, format4]);
  records.push([0, 4, format12]);
  if (format4) records.push([3, 1, format4]);
  records.push([3, 10, format12]);
  const subtables = [...new Set(records.map(([, , table]) => table))];
  const header = 4 + records.length * 8;
  const at = new Map<Uint8Array, number>();
  let offset = header;
  for (const table of subtables) {
    at.set(table, offset);
    offset += table.byteLength;
  }
  const out = new Uint8Array(offset);
  const view = viewOf(out);
  view.setUint16(2, records.length);
  records.forEach(([platform, encoding, table], i) => {
    view.setUint16(4 + i * 8, platform);
    view.setUint16(6 + i * 8, encoding);
    view.setUint32(8 + i * 8, at.get(table) ?? 0);
  });
  for (const table of subtables) out.set(table, at.get(table) ?? 0);
  return out;
}

function sameBytes(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  if (!a || !b) return a === b;
  return a.byteLength === b.byteLength && a.every((byte, i) => byte === b[i]);
}

/**
 * Merges slices (TrueType fonts, decoded from WOFF2) into one font. The slice with the most
 * characters comes first, so that it owns the characters slices share. Throws when the slices are
 * not parts of one TrueType font (differing units per em or hinting programs, CFF outlines) or use
 * a layout structure the merger does not know.
 */
export function mergeSlices(sliceBytes: readonly Uint8Array[]): MergedFont {
  if (sliceBytes.length === 0) throw new Error('no slices to merge');
  const slices = sliceBytes.map(readSlice).sort((a, b) => b.cmap.size - a.cmap.size);
  const [first] = slices;
  if (!first) throw new Error('no slices to merge');
  const unitsPerEm = viewOf(required(first.font, 'head')).getUint16(18);
  for (const slice of slices) {
    if (viewOf(required(slice.font, 'head')).getUint16(18) !== unitsPerEm)
      throw new Error('slices differ in units per em');
    for (const tag of SHARED) {
      if (!sameBytes(tableOf(slice.font, tag), tableOf(first.font, tag))) throw new Error(`slices differ in ${tag}`);
    }
  }
  const maps: SliceMapping[] = [];
  let base = 0;
  for (const slice of slices) {
    maps.push({ glyphBase: base, lookupBase: 0, markSetBase: 0 });
    base += slice.glyphCount - 1;
  }
  const glyphCount = base + 1;
  if (glyphCount > 0xffff) throw new Error(`${glyphCount} glyphs are more than one font can hold`);

  // glyf, loca, hmtx, vmtx
  const glyphs: Uint8Array[] = [first.glyph(0)];
  const horizontal: Array<[number, number]> = [[first.advance(0), first.sideBearing(0)]];
  const vertical = slices.every((slice) => slice.vertical) ? [[0, 0] as [number, number]] : undefined;
  if (vertical && first.vertical) vertical[0] = [first.vertical.advance(0), first.vertical.sideBearing(0)];
  slices.forEach((slice, s) => {
    const glyphBase = maps[s]?.glyphBase ?? 0;
    for (let k = 1; k < slice.glyphCount; k++) {
      glyphs.push(movedGlyph(slice.glyph(k), glyphBase));
      horizontal.push([slice.advance(k), slice.sideBearing(k)]);
      if (vertical && slice.vertical) vertical.push([slice.vertical.advance(k), slice.vertical.sideBearing(k)]);
    }
  });
  const glyfSize = glyphs.reduce((sum, glyph) => sum + pad4(glyph.byteLength), 0);
  const glyf = new Uint8Array(glyfSize);
  const loca = new Uint8Array((glyphCount + 1) * 4);
  const locaView = viewOf(loca);
  let at = 0;
  glyphs.forEach((glyph, i) => {
    locaView.setUint32(i * 4, at);
    glyf.set(glyph, at);
    at += pad4(glyph.byteLength);
  });
  locaView.setUint32(glyphCount * 4, at);
  const longMetrics = (rows: Array<[number, number]>) => {
    const table = new Uint8Array(rows.length * 4);
    const view = viewOf(table);
    rows.forEach(([advance, bearing], i) => {
      view.setUint16(i * 4, advance);
      view.setInt16(i * 4 + 2, bearing);
    });
    return table;
  };

  // cmap: the first slice (in merge order) mapping a character owns it.
  const cmap = new Map<number, number>();
  slices.forEach((slice, s) => {
    const glyphBase = maps[s]?.glyphBase ?? 0;
    for (const [cp, glyph] of slice.cmap) if (!cmap.has(cp)) cmap.set(cp, glyph + glyphBase);
  });

  // Font-wide tables from the first slice, extremes over all.
  const head = required(first.font, 'head').slice();
  const headView = viewOf(head);
  headView.setInt16(50, 1);
  const maxp = required(first.font, 'maxp').slice();
  const maxpView = viewOf(maxp);
  maxpView.setUint16(4, glyphCount);
  const hhea = required(first.font, 'hhea').slice();
  const hheaView = viewOf(hhea);
  hheaView.setUint16(34, glyphCount);
  const vhea = vertical ? tableOf(first.font, 'vhea')?.slice() : undefined;
  const os2 = tableOf(first.font, 'OS/2')?.slice();
  for (const slice of slices) {
    const h = viewOf(required(slice.font, 'head'));
    headView.setInt16(36, Math.min(headView.getInt16(36), h.getInt16(36)));
    headView.setInt16(38, Math.min(headView.getInt16(38), h.getInt16(38)));
    headView.setInt16(40, Math.max(headView.getInt16(40), h.getInt16(40)));
    headView.setInt16(42, Math.max(headView.getInt16(42), h.getInt16(42)));
    const m = viewOf(required(slice.font, 'maxp'));
    for (let field = 6; field + 2 <= Math.min(maxp.byteLength, m.byteLength); field += 2) {
      maxpView.setUint16(field, Math.max(maxpView.getUint16(field), m.getUint16(field)));
    }
    const extremes = (target: DataView, source: DataView) => {
      target.setUint16(10, Math.max(target.getUint16(10), source.getUint16(10)));
      target.setInt16(12, Math.min(target.getInt16(12), source.getInt16(12)));
      target.setInt16(14, Math.min(target.getInt16(14), source.getInt16(14)));
      target.setInt16(16, Math.max(target.getInt16(16), source.getInt16(16)));
    };
    extremes(hheaView, viewOf(required(slice.font, 'hhea')));
    const sliceVhea = tableOf(slice.font, 'vhea');
    if (vhea && sliceVhea) extremes(viewOf(vhea), viewOf(sliceVhea));
    const sliceOs2 = tableOf(slice.font, 'OS/2');
    if (os2 && sliceOs2 && sliceOs2.byteLength >= 68) {
      const o = viewOf(os2);
      const p = viewOf(sliceOs2);
      for (let field = 42; field < 58; field += 4) o.setUint32(field, (o.getUint32(field) | p.getUint32(field)) >>> 0);
      o.setUint16(64, Math.min(o.getUint16(64), p.getUint16(64)));
      o.setUint16(66, Math.max(o.getUint16(66), p.getUint16(66)));
      if (os2.byteLength >= 86 && sliceOs2.byteLength >= 86) {
        for (const field of [78, 82]) o.setUint32(field, (o.getUint32(field) | p.getUint32(field)) >>> 0);
      }
      if (os2.byteLength >= 96 && sliceOs2.byteLength >= 96)
        o.setUint16(94, Math.max(o.getUint16(94), p.getUint16(94)));
    }
  }
  if (vhea) viewOf(vhea).setUint16(34, glyphCount);
  const post = required(first.font, 'post').slice(0, 32);
  viewOf(post).setUint32(0, 0x00030000);

  const gdef = mergeGdef(
    slices.map((slice) => tableOf(slice.font, 'GDEF')),
    maps,
  );
  const gsub = mergeLayout(
    'GSUB',
    slices.map((slice) => tableOf(slice.font, 'GSUB')),
    maps,
  );
  const gpos = mergeLayout(
    'GPOS',
    slices.map((slice) => tableOf(slice.font, 'GPOS')),
    maps,
  );

  const tables: Array<{ tag: string; data: Uint8Array }> = [
    { tag: 'head', data: head },
    { tag: 'hhea', data: hhea },
    { tag: 'maxp', data: maxp },
    { tag: 'post', data: post },
    { tag: 'cmap', data: buildCmap(cmap) },
    { tag: 'glyf', data: glyf },
    { tag: 'loca', data: loca },
    { tag: 'hmtx', data: longMetrics(horizontal) },
  ];
  if (vertical && vhea) tables.push({ tag: 'vhea', data: vhea }, { tag: 'vmtx', data: longMetrics(vertical) });
  if (os2) tables.push({ tag: 'OS/2', data: os2 });
  if (gdef) tables.push({ tag: 'GDEF', data: gdef });
  if (gsub) tables.push({ tag: 'GSUB', data: gsub });
  if (gpos) tables.push({ tag: 'GPOS', data: gpos });
  const handled = new Set([...tables.map((table) => table.tag), 'vhea', 'vmtx', 'OS/2', 'GDEF', 'GSUB', 'GPOS']);
  for (const table of first.font.tables) {
    if (handled.has(table.tag) || LEFT_OUT.has(table.tag)) continue;
    // BASE and the like are kept only when every slice has the same table.
    if (
      table.tag === 'name' ||
      SHARED.includes(table.tag) ||
      slices.every((slice) => sameBytes(tableOf(slice.font, table.tag), table.data))
    ) {
      tables.push({ tag: table.tag, data: table.data });
    }
  }
  return { font: writeSfnt({ flavor: FLAVOR_TRUETYPE, tables }), cmap, glyphCount, slices: slices.length };
}

/** A glyph's outline without its components' glyph ids: composite glyphs of two fonts compare equal when their flags, offsets and transforms do. */
function outlineKey(bytes: Uint8Array): string {
  if (bytes.byteLength < 10 || viewOf(bytes).getInt16(0) >= 0) return Buffer.from(bytes).toString('base64');
  const copy = bytes.slice();
  const view = viewOf(copy);
  let at = 10;
  for (;;) {
    const flags = view.getUint16(at);
    view.setUint16(at + 2, 0);
    at += 4 + (flags & 0x0001 ? 4 : 2);
    if (flags & 0x0008) at += 2;
    else if (flags & 0x0040) at += 4;
    else if (flags & 0x0080) at += 8;
    if (!(flags & 0x0020)) break;
  }
  return Buffer.from(copy).toString('base64');
}

/**
 * The seeding's check of a rebuilt font, read back from its bytes: its cmap is exactly the union of
 * the slices' cmaps, and every character's glyph has the outline (and advance) it has in every slice
 * that maps it. Throws with the first difference.
 */
export function checkMerged(sliceBytes: readonly Uint8Array[], merged: Uint8Array): void {
  const font = readSlice(merged);
  const union = new Set<number>();
  for (const bytes of sliceBytes) {
    const slice = readSlice(bytes);
    for (const [cp, glyph] of slice.cmap) {
      union.add(cp);
      const own = font.cmap.get(cp);
      if (own === undefined) throw new Error(`U+${cp.toString(16)} is missing from the rebuilt font`);
      if (
        outlineKey(font.glyph(own)) !== outlineKey(slice.glyph(glyph)) ||
        font.advance(own) !== slice.advance(glyph)
      ) {
        throw new Error(`U+${cp.toString(16)} differs from its slice`);
      }
    }
  }
  if (union.size !== font.cmap.size) throw new Error('the rebuilt font maps characters no slice has');
}
