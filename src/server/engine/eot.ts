import { FontInputError } from './font-errors.ts';
import { readSfnt, tableOf, viewOf } from './sfnt.ts';

// Embedded OpenType (EOT), the web font format of Internet Explorer 6–8: a little-endian header
// with a few OS/2 and name fields, then the TrueType font itself. We write version 0x00020001
// without compression or obfuscation (what IE reads and the W3C submission describes), and read
// any version, refusing MicroType Express compression, whose decoder we do not ship.

const VERSION_2_1 = 0x00020001;
const MAGIC = 0x504c;
const FLAG_MTX_COMPRESSED = 0x4;
const FLAG_XOR_ENCRYPTED = 0x10000000;

/** The name-table strings the header repeats: family (1), style (2), version (5), full name (4). */
function windowsName(name: Uint8Array | undefined, nameId: number): string {
  if (!name || name.byteLength < 6) return '';
  const view = viewOf(name);
  const count = view.getUint16(2);
  const storage = view.getUint16(4);
  let fallback = '';
  for (let i = 0; i < count; i++) {
    const record = 6 + i * 12;
    if (record + 12 > name.byteLength) break;
    const platform = view.getUint16(record);
    const language = view.getUint16(record + 4);
    if (platform !== 3 || view.getUint16(record + 6) !== nameId) continue;
    const length = view.getUint16(record + 8);
    const offset = storage + view.getUint16(record + 10);
    if (offset + length > name.byteLength) continue;
    let text = '';
    for (let k = 0; k + 1 < length; k += 2) text += String.fromCharCode(view.getUint16(offset + k));
    if (language === 0x409) return text;
    fallback ||= text;
  }
  return fallback;
}

/** Wraps a TrueType font in an EOT (version 2.1, uncompressed). */
export function encodeEot(ttf: Uint8Array): Uint8Array {
  const font = readSfnt(ttf);
  const os2 = tableOf(font, 'OS/2');
  const head = tableOf(font, 'head');
  if (!os2 || os2.byteLength < 78 || !head) throw new FontInputError('corrupt', 'EOT needs OS/2 and head');
  const name = tableOf(font, 'name');
  const strings = [1, 2, 5, 4].map((id) => windowsName(name, id));
  const os2View = viewOf(os2);
  const stringBytes = strings.reduce((sum, text) => sum + 4 + text.length * 2, 0) + 4; // + empty root string
  const headerSize = 80 + stringBytes;
  const out = new Uint8Array(headerSize + ttf.byteLength);
  const view = viewOf(out);
  view.setUint32(0, out.byteLength, true);
  view.setUint32(4, ttf.byteLength, true);
  view.setUint32(8, VERSION_2_1, true);
  view.setUint32(12, 0, true);
  out.set(os2.subarray(32, 42), 16); // PANOSE
  out[26] = 1; // DEFAULT_CHARSET
  out[27] = os2View.getUint16(62) & 1; // fsSelection bit 0: italic
  view.setUint32(28, os2View.getUint16(4), true); // usWeightClass
  view.setUint16(32, os2View.getUint16(8), true); // fsType
  view.setUint16(34, MAGIC, true);
  for (let i = 0; i < 4; i++) view.setUint32(36 + i * 4, os2View.getUint32(42 + i * 4), true); // ulUnicodeRange1–4
  const hasCodePages = os2View.getUint16(0) >= 1 && os2.byteLength >= 86;
  for (let i = 0; i < 2; i++) view.setUint32(52 + i * 4, hasCodePages ? os2View.getUint32(78 + i * 4) : 0, true);
  view.setUint32(60, viewOf(head).getUint32(8), true); // checkSumAdjustment
  // 64–79 hold four reserved ULONGs; every padding field stays zero.
  let at = 80;
  for (const text of strings) {
    at += 2; // padding
    view.setUint16(at, text.length * 2, true);
    at += 2;
    for (let k = 0; k < text.length; k++, at += 2) view.setUint16(at, text.charCodeAt(k), true);
  }
  at += 2; // padding
  view.setUint16(at, 0, true); // RootStringSize: no root string, so any site may use the font
  at += 2;
  out.set(ttf, at);
  return out;
}

/** Unwraps the font of an EOT; MTX-compressed files are refused and XOR-obfuscated ones decoded. */
export function decodeEot(eot: Uint8Array): Uint8Array {
  if (eot.byteLength < 82) throw new FontInputError('truncated', 'EOT header');
  const view = viewOf(eot);
  const eotSize = view.getUint32(0, true);
  const fontDataSize = view.getUint32(4, true);
  const flags = view.getUint32(12, true);
  if (view.getUint16(34, true) !== MAGIC) throw new FontInputError('not-font', 'no EOT magic');
  if (eotSize > eot.byteLength || fontDataSize > eotSize) throw new FontInputError('truncated', 'EOT sizes');
  if (flags & FLAG_MTX_COMPRESSED) throw new FontInputError('mtx', 'MTX-compressed EOT');
  const data = eot.slice(eotSize - fontDataSize, eotSize);
  if (flags & FLAG_XOR_ENCRYPTED) for (let i = 0; i < data.byteLength; i++) data[i] = (data[i] ?? 0) ^ 0x50;
  return data;
}
