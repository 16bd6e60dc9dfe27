import zlib from 'node:zlib';
import { FontInputError } from './font-errors.ts';
import { readSfnt, type Sfnt, type SfntTable, tableChecksum, tableOf, viewOf, writeSfnt } from './sfnt.ts';

// WOFF 1.0 (W3C, 2012): the sfnt tables, each deflated with zlib on its own, behind a 44-byte
// header and a 20-byte record per table. Every table is kept exactly, so a round trip through WOFF
// gives back the same font; no package is needed for something this small.

const WOFF_SIGNATURE = 0x774f4646;
const HEADER_SIZE = 44;
const RECORD_SIZE = 20;
const pad4 = (n: number) => (n + 3) & ~3;

/**
 * Wraps a TTF/OTF in WOFF; a table is stored deflated only when that makes it smaller. `onProgress`
 * hears the share of the font's bytes compressed so far, after each table.
 */
export function encodeWoff(sfnt: Uint8Array, onProgress?: (fraction: number) => void): Uint8Array {
  const font = readSfnt(sfnt);
  const tables = [...font.tables].sort((a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
  // Tables are compressed one by one, so the share done is the bytes of the tables behind.
  const total = tables.reduce((sum, table) => sum + table.data.byteLength, 0) || 1;
  let done = 0;
  const entries = tables.map((table) => {
    const deflated = zlib.deflateSync(table.data, { level: 9 });
    const stored = deflated.byteLength < table.data.byteLength ? deflated : table.data;
    done += table.data.byteLength;
    onProgress?.(done / total);
    return { table, stored };
  });
  const totalSfntSize = entries.reduce(
    (size, { table }) => size + pad4(table.data.byteLength),
    12 + 16 * tables.length,
  );
  let offset = HEADER_SIZE + RECORD_SIZE * tables.length;
  const length = entries.reduce((size, { stored }) => size + pad4(stored.byteLength), offset);
  const out = new Uint8Array(length);
  const view = viewOf(out);
  const head = tableOf(font, 'head');
  view.setUint32(0, WOFF_SIGNATURE);
  view.setUint32(4, font.flavor);
  view.setUint32(8, length);
  view.setUint16(12, tables.length);
  view.setUint32(16, totalSfntSize);
  // The WOFF version fields carry the font's own revision (head.fontRevision, a 16.16 number).
  if (head && head.byteLength >= 8) {
    view.setUint16(20, viewOf(head).getUint16(4));
    view.setUint16(22, viewOf(head).getUint16(6));
  }
  entries.forEach(({ table, stored }, i) => {
    const record = HEADER_SIZE + i * RECORD_SIZE;
    for (let k = 0; k < 4; k++) out[record + k] = table.tag.charCodeAt(k);
    view.setUint32(record + 4, offset);
    view.setUint32(record + 8, stored.byteLength);
    view.setUint32(record + 12, table.data.byteLength);
    view.setUint32(record + 16, table.tag === 'head' ? headChecksum(table.data) : tableChecksum(table.data));
    out.set(stored, offset);
    offset += pad4(stored.byteLength);
  });
  return out;
}

/** The checksum of head is computed with checkSumAdjustment taken as zero. */
function headChecksum(head: Uint8Array): number {
  const copy = head.slice();
  if (copy.byteLength >= 12) viewOf(copy).setUint32(8, 0);
  return tableChecksum(copy);
}

/**
 * Unwraps a WOFF into a TTF/OTF. `maxSfntBytes` bounds what the file may expand to: the declared
 * sizes are checked before anything is inflated, and inflating itself stops at each table's
 * declared size, so a small file that claims or hides gigabytes is refused either way.
 */
export function decodeWoff(woff: Uint8Array, maxSfntBytes: number): Uint8Array {
  if (woff.byteLength < HEADER_SIZE) throw new FontInputError('truncated', 'WOFF header');
  const view = viewOf(woff);
  if (view.getUint32(0) !== WOFF_SIGNATURE) throw new FontInputError('not-font', 'no wOFF signature');
  const flavor = view.getUint32(4);
  const declaredLength = view.getUint32(8);
  const numTables = view.getUint16(12);
  const totalSfntSize = view.getUint32(16);
  if (declaredLength > woff.byteLength) throw new FontInputError('truncated', 'WOFF shorter than its header says');
  if (totalSfntSize > maxSfntBytes) throw new FontInputError('too-large', `WOFF declares ${totalSfntSize} bytes`);
  if (numTables === 0 || HEADER_SIZE + numTables * RECORD_SIZE > woff.byteLength) {
    throw new FontInputError('truncated', 'WOFF table directory');
  }
  const records = Array.from({ length: numTables }, (_, i) => {
    const record = HEADER_SIZE + i * RECORD_SIZE;
    return {
      tag: String.fromCharCode(...woff.subarray(record, record + 4)),
      offset: view.getUint32(record + 4),
      compLength: view.getUint32(record + 8),
      origLength: view.getUint32(record + 12),
    };
  });
  const declaredTotal = records.reduce((sum, record) => sum + record.origLength, 0);
  if (declaredTotal > maxSfntBytes) throw new FontInputError('too-large', `WOFF tables declare ${declaredTotal} bytes`);

  const tables: SfntTable[] = records.map(({ tag, offset, compLength, origLength }) => {
    if (offset + compLength > woff.byteLength) throw new FontInputError('truncated', `WOFF table ${tag}`);
    if (compLength > origLength) throw new FontInputError('corrupt', `WOFF table ${tag} larger compressed`);
    const stored = woff.subarray(offset, offset + compLength);
    if (compLength === origLength) return { tag, data: stored };
    let data: Buffer;
    try {
      data = zlib.inflateSync(stored, { maxOutputLength: Math.max(1, origLength) });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ERR_BUFFER_TOO_LARGE')
        throw new FontInputError('too-large', `WOFF table ${tag} inflates past size`);
      throw new FontInputError('corrupt', `WOFF table ${tag}: ${(error as Error).message}`);
    }
    if (data.byteLength !== origLength) throw new FontInputError('corrupt', `WOFF table ${tag} has the wrong size`);
    return { tag, data };
  });
  const font: Sfnt = { flavor, tables };
  return writeSfnt(font);
}
