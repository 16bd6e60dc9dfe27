import { readFontDataFile } from './data-files.ts';

/** The character sets whose coverage the font library reports for every font. */
export interface CoverageSets {
  /** The 6763 hanzi of GB 2312-80. */
  gb2312: ReadonlySet<number>;
  /** The 3500 characters of level 1 (一级字表) of 通用规范汉字表 (2013). */
  tongyong: ReadonlySet<number>;
  /** The 13053 hanzi of Big5 (frequent and less frequent characters). */
  big5: ReadonlySet<number>;
  /** Printable Basic Latin, U+0020–U+007E (95 characters). */
  latin: ReadonlySet<number>;
}

/** A count for each coverage set; the same keys as CoverageSets. */
export type Coverage = { [K in keyof CoverageSets]: number };

const TONGYONG_FILE = 'tongyong-level1.txt';

/** Decodes every two-byte code in the given lead/trail ranges; codes the encoding leaves unassigned are skipped. */
function decodeDoubleBytes(
  encoding: string,
  leads: [number, number],
  trails: Array<[number, number]>,
  include: (lead: number, trail: number) => boolean,
): Set<number> {
  const decoder = new TextDecoder(encoding, { fatal: true });
  const codePoints = new Set<number>();
  const pair = new Uint8Array(2);
  for (let lead = leads[0]; lead <= leads[1]; lead++) {
    for (const [from, to] of trails) {
      for (let trail = from; trail <= to; trail++) {
        if (!include(lead, trail)) continue;
        pair[0] = lead;
        pair[1] = trail;
        const text = decoder.decode(pair);
        const codePoint = text.codePointAt(0);
        if (codePoint !== undefined) codePoints.add(codePoint);
      }
    }
  }
  return codePoints;
}

/** GB 2312 hanzi live in rows 0xB0–0xF7; the last five cells of row 0xD7 are empty. */
function buildGb2312(): Set<number> {
  return decodeDoubleBytes('gbk', [0xb0, 0xf7], [[0xa1, 0xfe]], (lead, trail) => !(lead === 0xd7 && trail > 0xf9));
}

/** Big5 hanzi: frequent ones at 0xA440–0xC67E, less frequent ones at 0xC940–0xF9D5. */
function buildBig5(): Set<number> {
  const trails: Array<[number, number]> = [
    [0x40, 0x7e],
    [0xa1, 0xfe],
  ];
  const inRange = (code: number) => (code >= 0xa440 && code <= 0xc67e) || (code >= 0xc940 && code <= 0xf9d5);
  return decodeDoubleBytes('big5', [0xa4, 0xf9], trails, (lead, trail) => inRange((lead << 8) | trail));
}

function buildLatin(): Set<number> {
  const codePoints = new Set<number>();
  for (let cp = 0x20; cp <= 0x7e; cp++) codePoints.add(cp);
  return codePoints;
}

function buildTongyong(): Set<number> {
  const text = readFontDataFile(TONGYONG_FILE).trim();
  return new Set(Array.from(text, (char) => char.codePointAt(0) ?? 0));
}

/**
 * The 8 105 characters of 通用规范汉字表 (2013) in the table's order: level 1 (3 500, the common
 * characters), then levels 2 and 3 (names, places, science and the classics).
 */
export function tongyongTable(): string[] {
  return [...readFontDataFile(TONGYONG_FILE).trim(), ...readFontDataFile('tongyong-level2-3.txt').trim()];
}

/**
 * The 6 355 kanji of JIS X 0208 (Shift_JIS lead bytes 0x88–0x9F and 0xE0–0xEA). Not a coverage set
 * the library reports: identification uses it to tell a Japanese form (帰, 駅, 図) from the
 * Simplified and Traditional ones, which neither GB 2312 nor Big5 holds.
 */
function buildJis0208(): Set<number> {
  // Not decodeDoubleBytes: its strict decoder throws on the cells JIS X 0208 leaves empty.
  const decoder = new TextDecoder('shift_jis');
  const codePoints = new Set<number>();
  for (const [from, to] of [
    [0x88, 0x9f],
    [0xe0, 0xea],
  ] as const) {
    for (let lead = from; lead <= to; lead++) {
      for (let trail = 0x40; trail <= 0xfc; trail++) {
        if (trail === 0x7f) continue;
        const codePoint = decoder.decode(new Uint8Array([lead, trail])).codePointAt(0) ?? 0;
        if (codePoint >= 0x4e00 && codePoint <= 0x9fff) codePoints.add(codePoint);
      }
    }
  }
  return codePoints;
}

// The tables are kept on globalThis, one per thread: the start script builds them before the server
// listens (scripts/lib/warm.ts), and the page bundle, which carries its own copy of this module, then
// finds them built instead of building them on a visitor's request.
const TABLES = Symbol.for('font-alliance.charsets');

function tables(): { jis?: ReadonlySet<number>; coverage?: CoverageSets } {
  const slot = globalThis as { [TABLES]?: { jis?: ReadonlySet<number>; coverage?: CoverageSets } };
  slot[TABLES] ??= {};
  return slot[TABLES];
}

/** The kanji of JIS X 0208, built once on first use. */
export function jisKanji(): ReadonlySet<number> {
  const held = tables();
  held.jis ??= buildJis0208();
  return held.jis;
}

/** The coverage sets, built once on first use (about 25 000 code points in all). */
export function coverageSets(): CoverageSets {
  const held = tables();
  held.coverage ??= {
    gb2312: buildGb2312(),
    tongyong: buildTongyong(),
    big5: buildBig5(),
    latin: buildLatin(),
  };
  return held.coverage;
}

/** Counts, for each coverage set, how many of its code points `has` reports as present. */
export function countCoverage(has: (codePoint: number) => boolean): Coverage {
  const sets = coverageSets();
  const count = (set: ReadonlySet<number>) => {
    let n = 0;
    for (const cp of set) if (has(cp)) n++;
    return n;
  };
  return {
    gb2312: count(sets.gb2312),
    tongyong: count(sets.tongyong),
    big5: count(sets.big5),
    latin: count(sets.latin),
  };
}
