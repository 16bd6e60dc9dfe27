// Plans the unicode-range slices of the hosted web-font CSS (docs/tools.md, "Hosted web fonts"): every
// character the font maps goes into exactly one slice; slices come in order of use (Latin and
// punctuation, then hanzi by frequency, then everything else by code point) and are cut so that
// each one is about the target size as WOFF2. A page then downloads only the slices whose
// characters it shows, and the first slices serve most Chinese text.

/** Bumped whenever the planning changes, so that slice URLs (which carry it) change too. */
export const SLICE_PLAN_VERSION = 2;

/** The WOFF2 size a slice aims at; slices land mostly within ±10 KB of it. */
export const SLICE_TARGET_BYTES = 60_000;

/** Bytes every character costs beyond its outline (cmap, hmtx, loca entries and layout data). */
const PER_CHARACTER_OVERHEAD = 12;

/** Latin (through Latin Extended-B) and the punctuation blocks CJK text uses with it. */
export function isLatinOrPunctuation(cp: number): boolean {
  return (
    cp < 0x250 ||
    (cp >= 0x2000 && cp <= 0x206f) || // General Punctuation
    (cp >= 0x3000 && cp <= 0x303f) || // CJK Symbols and Punctuation
    (cp >= 0xff00 && cp <= 0xffef) // Halfwidth and Fullwidth Forms
  );
}

/** The order characters are sliced in; `rank` gives the frequency rank of the ranked ones. */
export function orderCharacters(codePoints: Iterable<number>, rank: ReadonlyMap<number, number>): number[] {
  const first: number[] = [];
  const ranked: number[] = [];
  const rest: number[] = [];
  for (const cp of codePoints) {
    if (isLatinOrPunctuation(cp)) first.push(cp);
    else if (rank.has(cp)) ranked.push(cp);
    else rest.push(cp);
  }
  first.sort((a, b) => a - b);
  ranked.sort((a, b) => (rank.get(a) ?? 0) - (rank.get(b) ?? 0));
  rest.sort((a, b) => a - b);
  return [...first, ...ranked, ...rest];
}

/** What planning needs of a font: its character map and each glyph's outline size in bytes. */
export interface SliceInput {
  cmap: ReadonlyMap<number, number>;
  glyphSizes: Uint32Array;
}

/**
 * How much layout data a character brings beyond its own glyph, which the glyph sizes do not show:
 * Latin and punctuation carry most of a CJK font's kerning and contextual lookups, and kana pull
 * in their vertical, half-width and ruby variants through GSUB. Without these weights their
 * slices come out 50–80 % over the target.
 */
function layoutWeight(cp: number): number {
  if ((cp >= 0x3040 && cp <= 0x30ff) || (cp >= 0x31f0 && cp <= 0x31ff)) return 3;
  return isLatinOrPunctuation(cp) ? 2 : 1;
}

/** The estimated sfnt bytes of one character (its glyph plus table entries). */
export function characterBytes(font: SliceInput, cp: number): number {
  const glyph = font.cmap.get(cp) ?? 0;
  const bytes = (font.glyphSizes[glyph] ?? 0) + PER_CHARACTER_OVERHEAD;
  return bytes * layoutWeight(cp);
}

/**
 * Cuts the ordered characters into slices of about `targetBytes` of WOFF2, given `ratio`, the
 * WOFF2 bytes one byte of glyph data becomes. A glyph shared by several characters is counted
 * once per slice.
 */
export function cutSlices(
  font: SliceInput,
  ordered: readonly number[],
  ratio: number,
  targetBytes = SLICE_TARGET_BYTES,
): number[][] {
  const budget = targetBytes / Math.max(ratio, 0.01);
  const slices: number[][] = [];
  let current: number[] = [];
  let glyphs = new Set<number>();
  let bytes = 0;
  for (const cp of ordered) {
    const glyph = font.cmap.get(cp) ?? 0;
    const cost = glyphs.has(glyph) ? PER_CHARACTER_OVERHEAD : characterBytes(font, cp);
    if (current.length > 0 && bytes + cost > budget) {
      slices.push(current);
      current = [];
      glyphs = new Set();
      bytes = 0;
    }
    current.push(cp);
    glyphs.add(glyph);
    bytes += cost;
  }
  if (current.length > 0) slices.push(current);
  return slices;
}

/** The estimated glyph bytes of a slice, as cutSlices counts them. */
export function sliceBytes(font: SliceInput, slice: readonly number[]): number {
  const glyphs = new Set<number>();
  let bytes = 0;
  for (const cp of slice) {
    const glyph = font.cmap.get(cp) ?? 0;
    bytes += glyphs.has(glyph) ? PER_CHARACTER_OVERHEAD : characterBytes(font, cp);
    glyphs.add(glyph);
  }
  return bytes;
}

/**
 * Writes code points as a CSS unicode-range value, runs of consecutive code points merged:
 * [0x20, 0x21, 0x22, 0x4e00] → 'U+20-22, U+4E00'.
 */
export function unicodeRange(codePoints: Iterable<number>): string {
  const sorted = [...new Set(codePoints)].sort((a, b) => a - b);
  const parts: string[] = [];
  const hex = (cp: number) => cp.toString(16).toUpperCase();
  for (let i = 0; i < sorted.length; ) {
    const start = sorted[i] ?? 0;
    let end = start;
    while (sorted[i + 1] === end + 1) {
      end++;
      i++;
    }
    i++;
    parts.push(end === start ? `U+${hex(start)}` : `U+${hex(start)}-${hex(end)}`);
  }
  return parts.join(', ');
}

/** Reads a unicode-range value back into code points (for tests and tools). */
export function parseUnicodeRange(value: string): number[] {
  const codePoints: number[] = [];
  for (const part of value.split(',')) {
    const match = /^\s*U\+([0-9A-F]+)(?:-([0-9A-F]+))?\s*$/i.exec(part);
    if (!match?.[1]) continue;
    const start = Number.parseInt(match[1], 16);
    const end = match[2] ? Number.parseInt(match[2], 16) : start;
    for (let cp = start; cp <= end; cp++) codePoints.push(cp);
  }
  return codePoints;
}
