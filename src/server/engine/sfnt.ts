import { FontInputError } from './font-errors.ts';

// The OpenType container ("sfnt"): a table directory followed by tables. Every converter reads
// tables out of one container and writes them into another byte for byte, so this module is the
// one place that knows the directory layout, the 4-byte padding and the checksums.

/** One table of a font: its tag and its bytes (a view into the source, not a copy). */
export interface SfntTable {
  tag: string;
  data: Uint8Array;
}

/** A font as its flavour (0x00010000 or 'OTTO') and its tables. */
export interface Sfnt {
  flavor: number;
  tables: SfntTable[];
}

/** The sfnt version of TrueType-outline fonts. */
export const FLAVOR_TRUETYPE = 0x00010000;
/** The sfnt version 'OTTO' of CFF-outline fonts. */
export const FLAVOR_CFF = 0x4f54544f;

const pad4 = (n: number) => (n + 3) & ~3;

/** The view of a byte array, for reading big-endian fields. */
export function viewOf(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The four-character tag at an offset. */
export function tagAt(bytes: Uint8Array, offset: number): string {
  return String.fromCharCode(
    bytes[offset] ?? 0,
    bytes[offset + 1] ?? 0,
    bytes[offset + 2] ?? 0,
    bytes[offset + 3] ?? 0,
  );
}

/**
 * Reads the table directory at `directoryOffset` (0 for a plain font; a collection member's own
 * offset inside a TTC, whose table offsets count from the start of the file). Throws
 * FontInputError when the directory or a table runs past the end: the file was cut short.
 */
export function readSfnt(bytes: Uint8Array, directoryOffset = 0): Sfnt {
  if (bytes.byteLength < directoryOffset + 12) throw new FontInputError('truncated', 'table directory');
  const view = viewOf(bytes);
  const flavor = view.getUint32(directoryOffset);
  const numTables = view.getUint16(directoryOffset + 4);
  if (numTables === 0 || numTables > 512) throw new FontInputError('corrupt', `${numTables} tables`);
  if (bytes.byteLength < directoryOffset + 12 + numTables * 16) throw new FontInputError('truncated', 'table records');
  const tables: SfntTable[] = [];
  for (let i = 0; i < numTables; i++) {
    const record = directoryOffset + 12 + i * 16;
    const tag = tagAt(bytes, record);
    const offset = view.getUint32(record + 8);
    const length = view.getUint32(record + 12);
    if (offset + length > bytes.byteLength) throw new FontInputError('truncated', `table ${tag}`);
    tables.push({ tag, data: bytes.subarray(offset, offset + length) });
  }
  return { flavor, tables };
}

/** The table with a tag, or undefined. */
export function tableOf(font: Sfnt, tag: string): Uint8Array | undefined {
  return font.tables.find((table) => table.tag === tag)?.data;
}

/** The OpenType checksum of a table: the sum of its big-endian 32-bit words, zero-padded. */
export function tableChecksum(data: Uint8Array): number {
  let sum = 0;
  const whole = data.byteLength & ~3;
  const view = viewOf(data);
  for (let i = 0; i < whole; i += 4) sum = (sum + view.getUint32(i)) >>> 0;
  if (whole < data.byteLength) {
    let last = 0;
    for (let i = whole; i < whole + 4; i++) last = (last << 8) | (data[i] ?? 0);
    sum = (sum + (last >>> 0)) >>> 0;
  }
  return sum;
}

/**
 * Writes a standalone font: the directory sorted by tag (as the specification asks), every table
 * copied unchanged and padded to 4 bytes, and head.checkSumAdjustment computed for the new file.
 */
export function writeSfnt(font: Sfnt): Uint8Array {
  const tables = [...font.tables].sort((a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
  const numTables = tables.length;
  const headerSize = 12 + 16 * numTables;
  const total = tables.reduce((size, table) => size + pad4(table.data.byteLength), headerSize);
  const out = new Uint8Array(total);
  const view = viewOf(out);
  let entrySelector = 0;
  while (2 ** (entrySelector + 1) <= numTables) entrySelector++;
  const searchRange = 2 ** entrySelector * 16;
  view.setUint32(0, font.flavor);
  view.setUint16(4, numTables);
  view.setUint16(6, searchRange);
  view.setUint16(8, entrySelector);
  view.setUint16(10, numTables * 16 - searchRange);

  let offset = headerSize;
  let headOffset = -1;
  tables.forEach((table, i) => {
    const record = 12 + i * 16;
    for (let k = 0; k < 4; k++) out[record + k] = table.tag.charCodeAt(k);
    out.set(table.data, offset);
    if (table.tag === 'head' && table.data.byteLength >= 12) {
      headOffset = offset;
      view.setUint32(offset + 8, 0);
    }
    view.setUint32(record + 4, tableChecksum(out.subarray(offset, offset + table.data.byteLength)));
    view.setUint32(record + 8, offset);
    view.setUint32(record + 12, table.data.byteLength);
    offset += pad4(table.data.byteLength);
  });
  if (headOffset >= 0) view.setUint32(headOffset + 8, (0xb1b0afba - tableChecksum(out)) >>> 0);
  return out;
}

/** Which outlines a font carries: TrueType quadratic curves (glyf) or PostScript cubic ones (CFF/CFF2). */
export type OutlineKind = 'truetype' | 'cff';

/** The outline kind of a font, from its tables; throws when it has neither kind (bitmap-only or broken). */
export function outlineKind(font: Sfnt): OutlineKind {
  if (tableOf(font, 'glyf') && tableOf(font, 'loca')) return 'truetype';
  if (tableOf(font, 'CFF ') || tableOf(font, 'CFF2')) return 'cff';
  throw new FontInputError('corrupt', 'no glyf/loca or CFF table');
}
