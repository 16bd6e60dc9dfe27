import zlib from 'node:zlib';

// A WOFF2 writer for on-the-fly previews. Google's encoder (wawoff2, woff2_compress) always runs
// Brotli at quality 11 and transforms glyf/loca, which costs 100–1000× the subsetting itself
// (research/perf.md); none of the packaged encoders exposes the quality. WOFF2 also allows the
// "null transform", so here the tables go through Node's native Brotli at a chosen quality as they
// are: about 1 ms for a 20-character subset, at the price of a larger file than a q11 encode,
// which the background re-encode replaces later.

/** The 63 table tags WOFF2 encodes as an index instead of four bytes (WOFF2 §5.1). */
const KNOWN_TAGS = [
  'cmap', 'head', 'hhea', 'hmtx', 'maxp', 'name', 'OS/2', 'post', 'cvt ', 'fpgm', 'glyf', 'loca', 'prep',
  'CFF ', 'VORG', 'EBDT', 'EBLC', 'gasp', 'hdmx', 'kern', 'LTSH', 'PCLT', 'VDMX', 'vhea', 'vmtx', 'BASE',
  'GDEF', 'GPOS', 'GSUB', 'EBSC', 'JSTF', 'MATH', 'CBDT', 'CBLC', 'COLR', 'CPAL', 'SVG ', 'sbix', 'acnt',
  'avar', 'bdat', 'bloc', 'bsln', 'cvar', 'fdsc', 'feat', 'fmtx', 'fvar', 'gvar', 'hsty', 'just', 'lcar',
  'mort', 'morx', 'opbd', 'prop', 'trak', 'Zapf', 'Silf', 'Glat', 'Gloc', 'Feat', 'Sill',
]; // biome-ignore format: one table of tags reads best packed

/** Transform version 3 means "null transform" for glyf and loca; version 0 means it for the rest. */
const NULL_TRANSFORM_GLYF_LOCA = 3 << 6;

interface SfntTable {
  tag: string;
  data: Uint8Array;
}

function readTables(sfnt: Uint8Array): { flavor: number; tables: SfntTable[] } {
  const view = new DataView(sfnt.buffer, sfnt.byteOffset, sfnt.byteLength);
  if (sfnt.byteLength < 12) throw new RangeError('font is too short to have a table directory');
  const flavor = view.getUint32(0);
  const numTables = view.getUint16(4);
  const tables: SfntTable[] = [];
  for (let i = 0; i < numTables; i++) {
    const record = 12 + i * 16;
    const tag = String.fromCharCode(...sfnt.subarray(record, record + 4));
    const offset = view.getUint32(record + 8);
    const length = view.getUint32(record + 12);
    if (offset + length > sfnt.byteLength) throw new RangeError(`table ${tag} runs past the end of the font`);
    tables.push({ tag, data: sfnt.subarray(offset, offset + length) });
  }
  return { flavor, tables };
}

function base128(value: number): number[] {
  const bytes = [value & 0x7f];
  for (let rest = value >>> 7; rest > 0; rest >>>= 7) bytes.unshift((rest & 0x7f) | 0x80);
  return bytes;
}

const pad4 = (n: number) => (n + 3) & ~3;

/**
 * Wraps a TTF/OTF in WOFF2 with null-transformed tables, compressed by Brotli at `quality`
 * (0–11). Browsers and OTS accept the result like any other WOFF2.
 */
export function encodeWoff2Fast(sfnt: Uint8Array, quality = 5): Uint8Array {
  const { flavor, tables } = readTables(sfnt);
  const directory: number[] = [];
  let sfntSize = 12 + 16 * tables.length;
  for (const { tag, data } of tables) {
    const index = KNOWN_TAGS.indexOf(tag);
    const transform = tag === 'glyf' || tag === 'loca' ? NULL_TRANSFORM_GLYF_LOCA : 0;
    directory.push((index === -1 ? 63 : index) | transform);
    if (index === -1) directory.push(...[...tag].map((ch) => ch.charCodeAt(0)));
    directory.push(...base128(data.byteLength));
    sfntSize += pad4(data.byteLength);
  }
  const uncompressed = Buffer.concat(tables.map((table) => table.data));
  const compressed = zlib.brotliCompressSync(uncompressed, {
    params: {
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_FONT,
      [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: uncompressed.byteLength,
    },
  });

  const headerSize = 48;
  const length = pad4(headerSize + directory.length + compressed.byteLength);
  const out = new Uint8Array(length);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x774f4632); // 'wOF2'
  view.setUint32(4, flavor);
  view.setUint32(8, length);
  view.setUint16(12, tables.length);
  view.setUint32(16, sfntSize);
  view.setUint32(20, compressed.byteLength);
  view.setUint16(24, 1); // majorVersion of the WOFF file
  out.set(directory, headerSize);
  out.set(compressed, headerSize + directory.length);
  return out;
}
