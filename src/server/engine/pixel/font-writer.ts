import { FLAVOR_TRUETYPE, writeSfnt } from '../sfnt.ts';

// Writes a TrueType font from glyph outlines made of straight lines and quadratic curves. The pixel
// font maker is its one user: its glyphs are polygons on a grid, so no library's general font
// builder is needed (opentype.js writes CFF outlines only, and fonttools is Python), and the tables
// stay as small and plain as the glyphs.

/** A point of an outline in font units; `on: false` marks a quadratic control point. */
export interface OutlinePoint {
  x: number;
  y: number;
  on: boolean;
}

/** One glyph: its character, advance width and contours (clockwise outer, counter-clockwise holes). */
export interface OutlineGlyph {
  codePoint: number;
  advance: number;
  contours: OutlinePoint[][];
}

/** What the font is called and how it is measured. */
export interface FontNaming {
  /** The family name as people read it (may be Chinese). */
  family: string;
  /** An ASCII family name for PostScript and old systems. */
  asciiFamily: string;
  /** CSS weight, 100–900. */
  weight: number;
  version: string;
  copyright: string;
}

/** Vertical metrics in font units. */
export interface FontMetrics {
  unitsPerEm: number;
  ascender: number;
  /** Negative: below the baseline. */
  descender: number;
  /** The size in pixels at which the font is pixel-exact (head.lowestRecPPEM). */
  pixelsPerEm: number;
}

const WEIGHT_NAMES: Record<number, string> = {
  100: 'Thin',
  200: 'ExtraLight',
  300: 'Light',
  400: 'Regular',
  500: 'Medium',
  600: 'SemiBold',
  700: 'Bold',
  800: 'ExtraBold',
  900: 'Black',
};

/** A growable big-endian byte writer. */
class Bytes {
  private buffer = new Uint8Array(1024);
  private view = new DataView(this.buffer.buffer);
  length = 0;
  private ensure(extra: number): void {
    if (this.length + extra <= this.buffer.length) return;
    let size = this.buffer.length * 2;
    while (size < this.length + extra) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buffer.subarray(0, this.length));
    this.buffer = next;
    this.view = new DataView(next.buffer);
  }
  u8(value: number): this {
    this.ensure(1);
    this.view.setUint8(this.length, value);
    this.length += 1;
    return this;
  }
  u16(value: number): this {
    this.ensure(2);
    this.view.setUint16(this.length, value & 0xffff);
    this.length += 2;
    return this;
  }
  i16(value: number): this {
    this.ensure(2);
    this.view.setInt16(this.length, value);
    this.length += 2;
    return this;
  }
  u32(value: number): this {
    this.ensure(4);
    this.view.setUint32(this.length, value >>> 0);
    this.length += 4;
    return this;
  }
  bytes(data: Uint8Array): this {
    this.ensure(data.length);
    this.buffer.set(data, this.length);
    this.length += data.length;
    return this;
  }
  pad(to: number): this {
    while (this.length % to !== 0) this.u8(0);
    return this;
  }
  done(): Uint8Array {
    return this.buffer.slice(0, this.length);
  }
}

interface Box {
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

function boxOf(contours: OutlinePoint[][]): Box | undefined {
  let box: Box | undefined;
  for (const contour of contours) {
    for (const { x, y } of contour) {
      if (!box) box = { xMin: x, yMin: y, xMax: x, yMax: y };
      else {
        box.xMin = Math.min(box.xMin, x);
        box.yMin = Math.min(box.yMin, y);
        box.xMax = Math.max(box.xMax, x);
        box.yMax = Math.max(box.yMax, y);
      }
    }
  }
  return box;
}

/** One simple glyph in the glyf table's encoding, padded to 4 bytes; empty glyphs are zero bytes. */
function encodeGlyph(contours: OutlinePoint[][]): Uint8Array {
  const box = boxOf(contours);
  if (!box) return new Uint8Array(0);
  const out = new Bytes();
  out.i16(contours.length).i16(box.xMin).i16(box.yMin).i16(box.xMax).i16(box.yMax);
  let end = -1;
  for (const contour of contours) {
    end += contour.length;
    out.u16(end);
  }
  out.u16(0); // no instructions
  const flags: number[] = [];
  const xs = new Bytes();
  const ys = new Bytes();
  let lastX = 0;
  let lastY = 0;
  for (const contour of contours) {
    for (const point of contour) {
      const dx = point.x - lastX;
      const dy = point.y - lastY;
      lastX = point.x;
      lastY = point.y;
      let flag = point.on ? 0x01 : 0;
      if (dx === 0) flag |= 0x10;
      else if (Math.abs(dx) < 256) {
        flag |= 0x02 | (dx > 0 ? 0x10 : 0);
        xs.u8(Math.abs(dx));
      } else xs.i16(dx);
      if (dy === 0) flag |= 0x20;
      else if (Math.abs(dy) < 256) {
        flag |= 0x04 | (dy > 0 ? 0x20 : 0);
        ys.u8(Math.abs(dy));
      } else ys.i16(dy);
      flags.push(flag);
    }
  }
  for (const flag of flags) out.u8(flag);
  out.bytes(xs.done()).bytes(ys.done());
  return out.pad(4).done();
}

/** cmap with a format 4 subtable (BMP) and a format 12 subtable (everything), for glyphs 1… in code point order. */
function encodeCmap(codePoints: readonly number[]): Uint8Array {
  // Runs of consecutive code points map to consecutive glyph ids, since glyphs are in code point order.
  const runs: Array<{ start: number; end: number; glyph: number }> = [];
  codePoints.forEach((cp, index) => {
    const last = runs.at(-1);
    if (last && cp === last.end + 1) last.end = cp;
    else runs.push({ start: cp, end: cp, glyph: index + 1 });
  });
  const bmp = runs.filter((run) => run.start <= 0xfffe).map((run) => ({ ...run, end: Math.min(run.end, 0xfffe) }));
  const segments = [...bmp, { start: 0xffff, end: 0xffff, glyph: 0 }];
  const segCount = segments.length;
  let entrySelector = 0;
  while (2 ** (entrySelector + 1) <= segCount) entrySelector++;
  const searchRange = 2 * 2 ** entrySelector;
  const format4 = new Bytes();
  format4
    .u16(4)
    .u16(16 + segCount * 8)
    .u16(0)
    .u16(segCount * 2)
    .u16(searchRange)
    .u16(entrySelector)
    .u16(segCount * 2 - searchRange);
  for (const segment of segments) format4.u16(segment.end);
  format4.u16(0);
  for (const segment of segments) format4.u16(segment.start);
  for (const segment of segments) format4.u16(segment.start === 0xffff ? 1 : segment.glyph - segment.start);
  for (const _segment of segments) format4.u16(0);
  const format12 = new Bytes();
  format12
    .u16(12)
    .u16(0)
    .u32(16 + runs.length * 12)
    .u32(0)
    .u32(runs.length);
  for (const run of runs) format12.u32(run.start).u32(run.end).u32(run.glyph);

  const f4 = format4.done();
  const f12 = format12.done();
  // A format 4 subtable cannot exceed 64 KB; a set that sparse is left to format 12 alone.
  const withFormat4 = f4.length <= 0xffff;
  const out = new Bytes();
  out.u16(0).u16(withFormat4 ? 2 : 1);
  let offset = 4 + (withFormat4 ? 2 : 1) * 8;
  if (withFormat4) {
    out.u16(3).u16(1).u32(offset);
    offset += f4.length;
  }
  out.u16(3).u16(10).u32(offset);
  if (withFormat4) out.bytes(f4);
  out.bytes(f12);
  return out.done();
}

function utf16be(text: string): Uint8Array {
  const out = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) {
    out[i * 2] = text.charCodeAt(i) >> 8;
    out[i * 2 + 1] = text.charCodeAt(i) & 0xff;
  }
  return out;
}

function encodeName(naming: FontNaming): Uint8Array {
  const style = WEIGHT_NAMES[naming.weight] ?? 'Regular';
  const ribbi = style === 'Regular' || style === 'Bold';
  const postscript = `${naming.asciiFamily.replace(/[^A-Za-z0-9-]/g, '')}-${style}`.slice(0, 63);
  const records: Array<{ language: number; id: number; text: string }> = [];
  const both = (id: number, english: string, chinese = english) => {
    records.push({ language: 0x0409, id, text: english });
    if (chinese !== english) records.push({ language: 0x0804, id, text: chinese });
  };
  const legacyFamily = ribbi ? naming.family : `${naming.family} ${style}`;
  const legacyAscii = ribbi ? naming.asciiFamily : `${naming.asciiFamily} ${style}`;
  both(0, naming.copyright);
  both(1, legacyAscii, legacyFamily);
  both(2, ribbi ? style : 'Regular');
  both(3, `${naming.version};${postscript}`);
  both(4, `${naming.asciiFamily} ${style}`, `${naming.family} ${style}`);
  both(5, `Version ${naming.version}`);
  both(6, postscript);
  if (!ribbi) {
    both(16, naming.asciiFamily, naming.family);
    both(17, style);
  }
  records.sort((a, b) => a.language - b.language || a.id - b.id);
  const strings = records.map((record) => utf16be(record.text));
  const out = new Bytes();
  out
    .u16(0)
    .u16(records.length)
    .u16(6 + records.length * 12);
  let offset = 0;
  records.forEach((record, i) => {
    const length = strings[i]?.length ?? 0;
    out.u16(3).u16(1).u16(record.language).u16(record.id).u16(length).u16(offset);
    offset += length;
  });
  for (const text of strings) out.bytes(text);
  return out.done();
}

/** Seconds since 1904-01-01, as head stores dates. */
function longDateTime(date: Date): [number, number] {
  const seconds = Math.floor(date.getTime() / 1000) + 2_082_844_800;
  return [Math.floor(seconds / 2 ** 32), seconds % 2 ** 32];
}

/** Unicode range bits (OS/2 ulUnicodeRange1–4) for the blocks a pixel font is likely to cover. */
function unicodeRanges(codePoints: readonly number[]): [number, number, number, number] {
  const ranges: [number, number, number, number] = [0, 0, 0, 0];
  const set = (bit: number) => {
    ranges[bit >> 5] = ((ranges[bit >> 5] ?? 0) | (1 << (bit & 31))) >>> 0;
  };
  for (const cp of codePoints) {
    if (cp < 0x80) set(0);
    else if (cp < 0x100) set(1);
    else if (cp >= 0x3000 && cp < 0x3040) set(48);
    else if (cp >= 0x3040 && cp < 0x30a0) set(49);
    else if (cp >= 0x30a0 && cp < 0x3100) set(50);
    else if (cp >= 0x4e00 && cp < 0xa000) set(59);
    else if (cp >= 0xff00 && cp < 0xfff0) set(68);
    else if (cp >= 0x2000 && cp < 0x2070) set(31);
  }
  return ranges;
}

/**
 * A TrueType font of the glyphs (.notdef first, then the glyphs in code point order): head,
 * hhea, maxp, OS/2, hmtx, cmap, loca, glyf, name and post, no hinting. Coordinates must be
 * integers that fit in 16 bits.
 */
export function writeTrueType(glyphs: readonly OutlineGlyph[], naming: FontNaming, metrics: FontMetrics): Uint8Array {
  const sorted = [...glyphs].sort((a, b) => a.codePoint - b.codePoint);
  const { unitsPerEm, ascender, descender } = metrics;
  // .notdef: an empty box, as wide as the em.
  const inset = Math.round(unitsPerEm / 16);
  const notdef: OutlineGlyph = {
    codePoint: -1,
    advance: unitsPerEm,
    contours: [
      [
        { x: inset, y: descender + inset, on: true },
        { x: inset, y: ascender - inset, on: true },
        { x: unitsPerEm - inset, y: ascender - inset, on: true },
        { x: unitsPerEm - inset, y: descender + inset, on: true },
      ],
      [
        { x: inset * 2, y: descender + inset * 2, on: true },
        { x: unitsPerEm - inset * 2, y: descender + inset * 2, on: true },
        { x: unitsPerEm - inset * 2, y: ascender - inset * 2, on: true },
        { x: inset * 2, y: ascender - inset * 2, on: true },
      ],
    ],
  };
  const all = [notdef, ...sorted];
  const encoded = all.map((glyph) => encodeGlyph(glyph.contours));
  const boxes = all.map((glyph) => boxOf(glyph.contours));

  const glyf = new Bytes();
  const loca = new Bytes();
  for (const data of encoded) {
    loca.u32(glyf.length);
    glyf.bytes(data);
  }
  loca.u32(glyf.length);

  const fontBox = boxes.reduce<Box>(
    (acc, box) =>
      box
        ? {
            xMin: Math.min(acc.xMin, box.xMin),
            yMin: Math.min(acc.yMin, box.yMin),
            xMax: Math.max(acc.xMax, box.xMax),
            yMax: Math.max(acc.yMax, box.yMax),
          }
        : acc,
    { xMin: 0, yMin: descender, xMax: 0, yMax: ascender },
  );
  const maxPoints = Math.max(0, ...all.map((glyph) => glyph.contours.reduce((n, contour) => n + contour.length, 0)));
  const maxContours = Math.max(0, ...all.map((glyph) => glyph.contours.length));
  const advanceMax = Math.max(...all.map((glyph) => glyph.advance));
  const lsbs = all.map((_glyph, i) => boxes[i]?.xMin ?? 0);
  const rsbs = all.map((glyph, i) => {
    const box = boxes[i];
    return box ? glyph.advance - box.xMax : 0;
  });
  const inked = boxes.filter(Boolean).length > 0;

  const now = longDateTime(new Date());
  const bold = naming.weight >= 700;
  const head = new Bytes()
    .u32(0x00010000)
    .u32(0x00010000)
    .u32(0)
    .u32(0x5f0f3cf5)
    .u16(0x000b)
    .u16(unitsPerEm)
    .u32(now[0])
    .u32(now[1])
    .u32(now[0])
    .u32(now[1])
    .i16(fontBox.xMin)
    .i16(fontBox.yMin)
    .i16(fontBox.xMax)
    .i16(fontBox.yMax)
    .u16(bold ? 1 : 0)
    .u16(metrics.pixelsPerEm)
    .i16(2)
    .i16(1)
    .i16(0);
  const hhea = new Bytes()
    .u32(0x00010000)
    .i16(ascender)
    .i16(descender)
    .i16(0)
    .u16(advanceMax)
    .i16(inked ? Math.min(...lsbs.filter((_, i) => boxes[i])) : 0)
    .i16(inked ? Math.min(...rsbs.filter((_, i) => boxes[i])) : 0)
    .i16(fontBox.xMax)
    .i16(1)
    .i16(0)
    .i16(0)
    .i16(0)
    .i16(0)
    .i16(0)
    .i16(0)
    .i16(0)
    .u16(all.length);
  const maxp = new Bytes()
    .u32(0x00010000)
    .u16(all.length)
    .u16(maxPoints)
    .u16(maxContours)
    .u16(0)
    .u16(0)
    .u16(2)
    .u16(0)
    .u16(0)
    .u16(0)
    .u16(0)
    .u16(0)
    .u16(0)
    .u16(0)
    .u16(0);
  const hmtx = new Bytes();
  all.forEach((glyph, i) => {
    hmtx.u16(glyph.advance).i16(lsbs[i] ?? 0);
  });
  const codePoints = sorted.map((glyph) => glyph.codePoint);
  const ranges = unicodeRanges(codePoints);
  const hasHan = codePoints.some((cp) => cp >= 0x4e00 && cp < 0xa000);
  const averageWidth = Math.round(sorted.reduce((sum, glyph) => sum + glyph.advance, 0) / Math.max(1, sorted.length));
  const os2 = new Bytes()
    .u16(4)
    .i16(averageWidth)
    .u16(naming.weight)
    .u16(5)
    .u16(0) // fsType 0: installable embedding
    .i16(Math.round(unitsPerEm * 0.65))
    .i16(Math.round(unitsPerEm * 0.6))
    .i16(0)
    .i16(Math.round(unitsPerEm * 0.075))
    .i16(Math.round(unitsPerEm * 0.65))
    .i16(Math.round(unitsPerEm * 0.6))
    .i16(0)
    .i16(Math.round(unitsPerEm * 0.35))
    .i16(Math.round(unitsPerEm * 0.05))
    .i16(Math.round(unitsPerEm * 0.25))
    .i16(0)
    .bytes(new Uint8Array(10))
    .u32(ranges[0])
    .u32(ranges[1])
    .u32(ranges[2])
    .u32(ranges[3])
    .bytes(new TextEncoder().encode('NONE'))
    .u16((bold ? 0x20 : 0x40) | 0x80)
    .u16(Math.min(0xffff, codePoints[0] ?? 0x20))
    .u16(Math.min(0xffff, codePoints.at(-1) ?? 0x20))
    .i16(ascender)
    .i16(descender)
    .i16(0)
    .u16(Math.max(ascender, fontBox.yMax))
    .u16(Math.max(-descender, -fontBox.yMin))
    .u32((hasHan ? 1 << 18 : 0) | (codePoints.some((cp) => cp < 0x100) ? 1 : 0))
    .u32(0)
    .i16(Math.round(unitsPerEm * 0.5))
    .i16(Math.round(unitsPerEm * 0.7))
    .u16(0)
    .u16(0x20)
    .u16(1);
  const post = new Bytes()
    .u32(0x00030000)
    .u32(0)
    .i16(descender + Math.round(unitsPerEm / 16))
    .i16(Math.round(unitsPerEm / 16))
    .u32(0)
    .u32(0)
    .u32(0)
    .u32(0)
    .u32(0);

  return writeSfnt({
    flavor: FLAVOR_TRUETYPE,
    tables: [
      { tag: 'head', data: head.done() },
      { tag: 'hhea', data: hhea.done() },
      { tag: 'maxp', data: maxp.done() },
      { tag: 'OS/2', data: os2.done() },
      { tag: 'hmtx', data: hmtx.done() },
      { tag: 'cmap', data: encodeCmap(codePoints) },
      { tag: 'loca', data: loca.done() },
      { tag: 'glyf', data: glyf.done() },
      { tag: 'name', data: encodeName(naming) },
      { tag: 'post', data: post.done() },
    ],
  });
}
