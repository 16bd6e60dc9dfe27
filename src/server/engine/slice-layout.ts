import { viewOf } from './sfnt.ts';

// Merging the OpenType layout tables (GSUB, GPOS, GDEF) of a web font's slices into one font.
//
// The slices of a CJK web font are subsets of one font, each with its own glyph ids. The merged
// font gives every slice a block of glyph ids in its own order (local id k ≥ 1 becomes base + k,
// .notdef stays 0), so every table of a slice keeps its shape: coverage lists stay sorted, glyph
// ranges stay ranges and single-substitution deltas stay the same. Each slice's GSUB/GPOS is
// therefore copied whole, with its glyph ids and nested lookup indices rewritten where they stand,
// and every lookup of the merged table is an Extension lookup pointing into that copy (32-bit
// offsets, so no 64 KB limit). A feature of the merged font runs, for each script and language,
// the lookups the same feature ran in each slice (falling back to DFLT as a shaper does), so a
// character shapes as it did in its own slice.
//
// No maintained JavaScript library merges layout tables (fontTools' merger is Python); rewriting
// ids in place keeps this to reading the structures, without a full OpenType serializer.

import { Patcher, type SliceMapping } from './slice-layout-ids.ts';

export type { SliceMapping };

interface ParsedLookup {
  type: number;
  flag: number;
  markSet: number;
  /** Offsets of the real (non-extension) subtables in the slice's table. */
  subtables: number[];
}

interface LangSys {
  features: number[];
}

interface ParsedLayout {
  bytes: Uint8Array;
  /** script tag → language tag ('' for the default) → the feature indices it runs. */
  scripts: Map<string, Map<string, LangSys>>;
  features: Array<{ tag: string; lookups: number[]; params: Uint8Array | undefined }>;
  lookups: ParsedLookup[];
}

const tagOf = (bytes: Uint8Array, at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));

function featureParams(bytes: Uint8Array, tag: string, at: number): Uint8Array {
  const view = viewOf(bytes);
  if (tag === 'size') return bytes.slice(at, at + 10);
  if (/^ss\d\d$/.test(tag)) return bytes.slice(at, at + 4);
  if (/^cv\d\d$/.test(tag)) return bytes.slice(at, at + 14 + 3 * view.getUint16(at + 12));
  throw new Error(`feature parameters of ${tag}`);
}

function parseLayout(table: Uint8Array, extensionType: number): ParsedLayout {
  const view = viewOf(table);
  const version = view.getUint32(0);
  if (version === 0x00010001 && view.getUint32(10) !== 0) throw new Error('feature variations are not merged');
  const scriptList = view.getUint16(4);
  const featureList = view.getUint16(6);
  const lookupList = view.getUint16(8);
  const scripts = new Map<string, Map<string, LangSys>>();
  const langSys = (at: number): LangSys => {
    if (view.getUint16(at + 2) !== 0xffff) throw new Error('required features are not merged');
    const count = view.getUint16(at + 4);
    return { features: Array.from({ length: count }, (_, i) => view.getUint16(at + 6 + i * 2)) };
  };
  if (scriptList !== 0) {
    for (let i = 0; i < view.getUint16(scriptList); i++) {
      const record = scriptList + 2 + i * 6;
      const script = scriptList + view.getUint16(record + 4);
      const languages = new Map<string, LangSys>();
      if (view.getUint16(script) !== 0) languages.set('', langSys(script + view.getUint16(script)));
      for (let k = 0; k < view.getUint16(script + 2); k++) {
        const lang = script + 4 + k * 6;
        languages.set(tagOf(table, lang), langSys(script + view.getUint16(lang + 4)));
      }
      scripts.set(tagOf(table, record), languages);
    }
  }
  const features: ParsedLayout['features'] = [];
  if (featureList !== 0) {
    for (let i = 0; i < view.getUint16(featureList); i++) {
      const record = featureList + 2 + i * 6;
      const tag = tagOf(table, record);
      const feature = featureList + view.getUint16(record + 4);
      const paramsOffset = view.getUint16(feature);
      const count = view.getUint16(feature + 2);
      features.push({
        tag,
        lookups: Array.from({ length: count }, (_, k) => view.getUint16(feature + 4 + k * 2)),
        params: paramsOffset ? featureParams(table, tag, feature + paramsOffset) : undefined,
      });
    }
  }
  const lookups: ParsedLookup[] = [];
  if (lookupList !== 0) {
    for (let i = 0; i < view.getUint16(lookupList); i++) {
      const lookup = lookupList + view.getUint16(lookupList + 2 + i * 2);
      const rawType = view.getUint16(lookup);
      let type = rawType;
      const flag = view.getUint16(lookup + 2);
      const count = view.getUint16(lookup + 4);
      const subtables: number[] = [];
      for (let k = 0; k < count; k++) {
        let sub = lookup + view.getUint16(lookup + 6 + k * 2);
        if (rawType === extensionType) {
          // An extension subtable names the real type and points at the real subtable.
          type = view.getUint16(sub + 2);
          sub += view.getUint32(sub + 4);
        }
        subtables.push(sub);
      }
      const markSet = flag & 0x10 ? view.getUint16(lookup + 6 + count * 2) : 0;
      lookups.push({ type, flag, markSet, subtables });
    }
  }
  return { bytes: table, scripts, features, lookups };
}

/** The language system a shaper would use in this slice for a script and language (DFLT fallbacks). */
function effectiveLangSys(layout: ParsedLayout, script: string, lang: string): LangSys | undefined {
  for (const candidate of [script, 'DFLT', 'dflt', 'latn']) {
    const languages = layout.scripts.get(candidate);
    if (!languages) continue;
    return (candidate === script ? languages.get(lang) : undefined) ?? languages.get('');
  }
  return undefined;
}

class Writer {
  private chunks: Uint8Array[] = [];
  size = 0;
  u16(value: number): void {
    this.bytes(Uint8Array.of(value >> 8, value & 0xff));
  }
  u32(value: number): void {
    this.bytes(Uint8Array.of(value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff));
  }
  tag(tag: string): void {
    this.bytes(Uint8Array.from(tag, (char) => char.charCodeAt(0)));
  }
  bytes(bytes: Uint8Array): void {
    this.chunks.push(bytes);
    this.size += bytes.byteLength;
  }
  pad4(): void {
    while (this.size % 4) this.bytes(Uint8Array.of(0));
  }
  result(): Uint8Array {
    const out = new Uint8Array(this.size);
    let at = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, at);
      at += chunk.byteLength;
    }
    return out;
  }
}

/**
 * Merges the GSUB (or GPOS) tables of the slices, each with its mapping; slices without the table
 * contribute nothing. Answers undefined when no slice has one.
 */
export function mergeLayout(
  tag: 'GSUB' | 'GPOS',
  tables: Array<Uint8Array | undefined>,
  maps: SliceMapping[],
): Uint8Array | undefined {
  const extensionType = tag === 'GSUB' ? 7 : 9;
  const layouts: Array<ParsedLayout | undefined> = tables.map((table) =>
    table ? parseLayout(table.slice(), extensionType) : undefined,
  );
  if (layouts.every((layout) => !layout)) return undefined;
  let lookupBase = 0;
  layouts.forEach((layout, s) => {
    const map = maps[s];
    if (!layout || !map) return;
    map.lookupBase = lookupBase;
    const patcher = new Patcher(layout.bytes, map, layout.lookups.length);
    for (const lookup of layout.lookups) {
      for (const sub of lookup.subtables) {
        if (tag === 'GSUB') patcher.gsub(lookup.type, sub);
        else patcher.gpos(lookup.type, sub);
      }
    }
    lookupBase += layout.lookups.length;
  });

  // Scripts and languages of any slice; for each, per feature tag, the merged lookups in order.
  const systems = new Map<string, Set<string>>();
  for (const layout of layouts) {
    for (const [script, languages] of layout?.scripts ?? []) {
      const set = systems.get(script) ?? new Set<string>();
      for (const lang of languages.keys()) set.add(lang);
      systems.set(script, set);
    }
  }
  const featureRecords: Array<{ tag: string; lookups: number[]; params: Uint8Array | undefined }> = [];
  const featureKeys = new Map<string, number>();
  const scriptRecords: Array<{ tag: string; languages: Array<{ tag: string; features: number[] }> }> = [];
  for (const script of [...systems.keys()].sort()) {
    const languages: Array<{ tag: string; features: number[] }> = [];
    for (const lang of [...(systems.get(script) ?? [])].sort()) {
      const byTag = new Map<string, { lookups: number[]; params: Uint8Array | undefined }>();
      layouts.forEach((layout, s) => {
        if (!layout) return;
        const system = effectiveLangSys(layout, script, lang);
        for (const index of system?.features ?? []) {
          const feature = layout.features[index];
          if (!feature) throw new Error(`feature ${index} out of range`);
          const entry = byTag.get(feature.tag) ?? { lookups: [], params: feature.params };
          entry.lookups.push(...feature.lookups.map((i) => i + (maps[s]?.lookupBase ?? 0)));
          byTag.set(feature.tag, entry);
        }
      });
      const features: number[] = [];
      for (const [featureTag, entry] of [...byTag].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        const lookups = [...new Set(entry.lookups)].sort((a, b) => a - b);
        const key = `${featureTag}:${lookups.join(',')}`;
        let index = featureKeys.get(key);
        if (index === undefined) {
          index = featureRecords.push({ tag: featureTag, lookups, params: entry.params }) - 1;
          featureKeys.set(key, index);
        }
        features.push(index);
      }
      languages.push({ tag: lang, features });
    }
    scriptRecords.push({ tag: script, languages });
  }
  // The FeatureList is ordered by tag, as the specification asks; the language systems follow.
  const order = featureRecords
    .map((_, i) => i)
    .sort((a, b) => {
      const x = featureRecords[a]?.tag ?? '';
      const y = featureRecords[b]?.tag ?? '';
      return x < y ? -1 : x > y ? 1 : a - b;
    });
  const position = new Map(order.map((old, i) => [old, i]));
  featureRecords.splice(
    0,
    featureRecords.length,
    ...order.map((i) => featureRecords[i] as (typeof featureRecords)[number]),
  );
  for (const record of scriptRecords) {
    for (const lang of record.languages)
      lang.features = lang.features.map((i) => position.get(i) ?? i).sort((a, b) => a - b);
  }

  // Layout: header, ScriptList, FeatureList, LookupList (with each lookup's extension subtables),
  // then the patched slice tables the extensions point into.
  const scriptList = new Writer();
  scriptList.u16(scriptRecords.length);
  const scriptBodies: Writer[] = [];
  let scriptAt = 2 + scriptRecords.length * 6;
  for (const record of scriptRecords) {
    const body = new Writer();
    const defaults = record.languages.find((lang) => lang.tag === '');
    const named = record.languages.filter((lang) => lang.tag !== '');
    const langSysSize = (features: number[]) => 6 + features.length * 2;
    let at = 4 + named.length * 6;
    body.u16(defaults ? at : 0);
    if (defaults) at += langSysSize(defaults.features);
    body.u16(named.length);
    for (const lang of named) {
      body.tag(lang.tag);
      body.u16(at);
      at += langSysSize(lang.features);
    }
    for (const lang of [...(defaults ? [defaults] : []), ...named]) {
      body.u16(0);
      body.u16(0xffff);
      body.u16(lang.features.length);
      for (const feature of lang.features) body.u16(feature);
    }
    scriptList.tag(record.tag);
    scriptList.u16(scriptAt);
    scriptAt += body.size;
    scriptBodies.push(body);
  }
  for (const body of scriptBodies) scriptList.bytes(body.result());

  const featureList = new Writer();
  featureList.u16(featureRecords.length);
  let featureAt = 2 + featureRecords.length * 6;
  const featureBodies: Writer[] = [];
  for (const record of featureRecords) {
    const body = new Writer();
    const head = 4 + record.lookups.length * 2;
    body.u16(record.params ? head : 0);
    body.u16(record.lookups.length);
    for (const lookup of record.lookups) body.u16(lookup);
    if (record.params) body.bytes(record.params);
    featureList.tag(record.tag);
    featureList.u16(featureAt);
    featureAt += body.size;
    featureBodies.push(body);
  }
  for (const body of featureBodies) featureList.bytes(body.result());

  const allLookups: Array<{ lookup: ParsedLookup; slice: number }> = [];
  layouts.forEach((layout, s) => {
    for (const lookup of layout?.lookups ?? []) allLookups.push({ lookup, slice: s });
  });
  const headerSize = 10;
  const scriptListAt = headerSize;
  const featureListAt = scriptListAt + scriptList.size;
  const lookupListAt = featureListAt + featureList.size;
  const lookupSizes = allLookups.map(
    ({ lookup }) => 6 + lookup.subtables.length * 2 + (lookup.flag & 0x10 ? 2 : 0) + lookup.subtables.length * 8,
  );
  const lookupListSize = 2 + allLookups.length * 2;
  const lookupsEnd = lookupListAt + lookupListSize + lookupSizes.reduce((a, b) => a + b, 0);
  if (lookupListAt > 0xffff || lookupListSize + lookupsEnd - lookupListAt > 0xffff) {
    throw new Error(`${tag} has too many lookups to merge`);
  }
  // Where each slice's patched table starts in the merged table.
  const sliceAt: number[] = [];
  let blobAt = lookupsEnd;
  for (const layout of layouts) {
    blobAt = (blobAt + 3) & ~3;
    sliceAt.push(blobAt);
    blobAt += layout?.bytes.byteLength ?? 0;
  }

  const out = new Writer();
  out.u32(0x00010000);
  out.u16(scriptListAt);
  out.u16(featureListAt);
  out.u16(lookupListAt);
  out.bytes(scriptList.result());
  out.bytes(featureList.result());
  out.u16(allLookups.length);
  let lookupAt = lookupListSize;
  for (const size of lookupSizes) {
    out.u16(lookupAt);
    lookupAt += size;
  }
  allLookups.forEach(({ lookup, slice }, i) => {
    const start = out.size;
    const count = lookup.subtables.length;
    out.u16(extensionType);
    out.u16(lookup.flag);
    out.u16(count);
    const extensionsAt = 6 + count * 2 + (lookup.flag & 0x10 ? 2 : 0);
    for (let k = 0; k < count; k++) out.u16(extensionsAt + k * 8);
    if (lookup.flag & 0x10) out.u16(lookup.markSet + (maps[slice]?.markSetBase ?? 0));
    for (const sub of lookup.subtables) {
      const here = out.size;
      out.u16(1);
      out.u16(lookup.type);
      out.u32((sliceAt[slice] ?? 0) + sub - here);
    }
    if (out.size - start !== lookupSizes[i]) throw new Error('lookup size mismatch');
  });
  layouts.forEach((layout) => {
    out.pad4();
    if (layout) out.bytes(layout.bytes);
  });
  return out.result();
}

/** Glyph classes of a ClassDef table, as merged glyph id → class. */
function readClassDef(bytes: Uint8Array, at: number, base: number, into: Map<number, number>): void {
  const view = viewOf(bytes);
  const mapped = (id: number) => (id === 0 ? 0 : id + base);
  const format = view.getUint16(at);
  if (format === 1) {
    const start = view.getUint16(at + 2);
    const count = view.getUint16(at + 4);
    for (let i = 0; i < count; i++) {
      const value = view.getUint16(at + 6 + i * 2);
      if (value) into.set(mapped(start + i), value);
    }
  } else if (format === 2) {
    for (let i = 0; i < view.getUint16(at + 2); i++) {
      const range = at + 4 + i * 6;
      const value = view.getUint16(range + 4);
      for (let g = view.getUint16(range); g <= view.getUint16(range + 2); g++) if (value) into.set(mapped(g), value);
    }
  }
}

function readCoverage(bytes: Uint8Array, at: number, base: number): number[] {
  const view = viewOf(bytes);
  const mapped = (id: number) => (id === 0 ? 0 : id + base);
  const out: number[] = [];
  const format = view.getUint16(at);
  const count = view.getUint16(at + 2);
  if (format === 1) for (let i = 0; i < count; i++) out.push(mapped(view.getUint16(at + 4 + i * 2)));
  else {
    for (let i = 0; i < count; i++) {
      const range = at + 4 + i * 6;
      for (let g = view.getUint16(range); g <= view.getUint16(range + 2); g++) out.push(mapped(g));
    }
  }
  return out;
}

function writeClassDef(classes: Map<number, number>): Uint8Array {
  const sorted = [...classes].sort((a, b) => a[0] - b[0]);
  const ranges: Array<[number, number, number]> = [];
  for (const [glyph, value] of sorted) {
    const last = ranges.at(-1);
    if (last && last[1] === glyph - 1 && last[2] === value) last[1] = glyph;
    else ranges.push([glyph, glyph, value]);
  }
  const w = new Writer();
  w.u16(2);
  w.u16(ranges.length);
  for (const [start, end, value] of ranges) {
    w.u16(start);
    w.u16(end);
    w.u16(value);
  }
  return w.result();
}

function writeCoverage(glyphs: number[]): Uint8Array {
  const sorted = [...new Set(glyphs)].sort((a, b) => a - b);
  const w = new Writer();
  w.u16(1);
  w.u16(sorted.length);
  for (const glyph of sorted) w.u16(glyph);
  return w.result();
}

/**
 * Merges the GDEF tables: glyph classes, mark attachment classes and mark glyph sets (each slice's
 * sets appended, its lookups' set indices moved by markSetBase, set here). Attachment points and
 * ligature carets are left out: shaping does not use them. Answers undefined when no slice has GDEF.
 */
export function mergeGdef(tables: Array<Uint8Array | undefined>, maps: SliceMapping[]): Uint8Array | undefined {
  if (tables.every((table) => !table)) return undefined;
  const glyphClasses = new Map<number, number>();
  const markClasses = new Map<number, number>();
  const markSets: number[][] = [];
  tables.forEach((table, s) => {
    const map = maps[s];
    if (!map) return;
    map.markSetBase = markSets.length;
    if (!table) return;
    const view = viewOf(table);
    const version = view.getUint32(0);
    if (view.getUint16(4)) readClassDef(table, view.getUint16(4), map.glyphBase, glyphClasses);
    if (view.getUint16(10)) readClassDef(table, view.getUint16(10), map.glyphBase, markClasses);
    if (version >= 0x00010002 && view.getUint16(12)) {
      const sets = view.getUint16(12);
      for (let i = 0; i < view.getUint16(sets + 2); i++) {
        markSets.push(readCoverage(table, sets + view.getUint32(sets + 4 + i * 4), map.glyphBase));
      }
    }
  });
  const classDef = writeClassDef(glyphClasses);
  const markClassDef = markClasses.size > 0 ? writeClassDef(markClasses) : undefined;
  const header = markSets.length > 0 ? 14 : 12;
  const w = new Writer();
  w.u32(markSets.length > 0 ? 0x00010002 : 0x00010000);
  w.u16(header);
  w.u16(0);
  w.u16(0);
  w.u16(markClassDef ? header + classDef.byteLength : 0);
  const setsAt = header + classDef.byteLength + (markClassDef?.byteLength ?? 0);
  if (markSets.length > 0) w.u16(setsAt);
  w.bytes(classDef);
  if (markClassDef) w.bytes(markClassDef);
  if (markSets.length > 0) {
    const coverages = markSets.map(writeCoverage);
    w.u16(1);
    w.u16(coverages.length);
    let at = 4 + coverages.length * 4;
    for (const coverage of coverages) {
      w.u32(at);
      at += coverage.byteLength;
    }
    for (const coverage of coverages) w.bytes(coverage);
  }
  return w.result();
}
