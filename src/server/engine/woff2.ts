import { createRequire } from 'node:module';
import { FontInputError } from './font-errors.ts';
import { viewOf } from './sfnt.ts';

// Google's WOFF2 encoder and decoder compiled to WASM (the wawoff2 package): Brotli at quality 11
// with the glyf/loca transform, every table kept. The encoder takes 20–50 s for a whole CJK font,
// so callers run it in a worker thread (tools-pool.ts).

const require = createRequire(import.meta.url);
type Codec = (bytes: Uint8Array) => Promise<Uint8Array>;

let compress: Codec | undefined;
let decompress: Codec | undefined;

/** Encodes a TTF/OTF as WOFF2 with Brotli quality 11 (the smallest file browsers can read). */
export async function encodeWoff2(sfnt: Uint8Array): Promise<Uint8Array> {
  compress ??= require('wawoff2/compress.js') as Codec;
  return Uint8Array.from(await compress(sfnt));
}

const WOFF2_HEADER_SIZE = 48;

/**
 * Decodes a WOFF2 into a TTF/OTF. The header's declared size of the decoded font is checked
 * against `maxSfntBytes` first; the decoder then refuses output that does not match what it
 * declared, so a WOFF2 cannot expand past the cap.
 */
export async function decodeWoff2(woff2: Uint8Array, maxSfntBytes: number): Promise<Uint8Array> {
  if (woff2.byteLength < WOFF2_HEADER_SIZE) throw new FontInputError('truncated', 'WOFF2 header');
  const view = viewOf(woff2);
  if (view.getUint32(0) !== 0x774f4632) throw new FontInputError('not-font', 'no wOF2 signature');
  const declaredLength = view.getUint32(8);
  const totalSfntSize = view.getUint32(16);
  if (declaredLength > woff2.byteLength) throw new FontInputError('truncated', 'WOFF2 shorter than its header says');
  if (totalSfntSize > maxSfntBytes) throw new FontInputError('too-large', `WOFF2 declares ${totalSfntSize} bytes`);
  decompress ??= require('wawoff2/decompress.js') as Codec;
  let out: Uint8Array;
  try {
    out = Uint8Array.from(await decompress(woff2));
  } catch (error) {
    throw new FontInputError('corrupt', `WOFF2 decoder: ${(error as Error).message}`);
  }
  if (out.byteLength === 0) throw new FontInputError('corrupt', 'WOFF2 decoded to nothing');
  if (out.byteLength > maxSfntBytes) throw new FontInputError('too-large', `WOFF2 decoded to ${out.byteLength} bytes`);
  return out;
}
