import type { Storage } from '../storage/index.ts';

// The sorted code points of a font file, cached in storage beside the fonts (`cmaps/<sha>.u32`, one
// little-endian uint32 each) so that the glyph browser and the coverage index never parse a large
// CJK font twice. The seeding writes it while it has the font's bytes at hand.

/** The storage key of a font file's code points. */
export function cmapKey(sha256: string): string {
  return `cmaps/${sha256.slice(0, 32)}.u32`;
}

/** Whether a mapped code point is a real character (not a noncharacter such as format 4's 0xFFFF end marker, nor a surrogate). */
export function isRealCharacter(cp: number): boolean {
  return (cp & 0xfffe) !== 0xfffe && !(cp >= 0xd800 && cp <= 0xdfff);
}

export function encodeCodePoints(codePoints: Uint32Array): Uint8Array {
  const bytes = new Uint8Array(codePoints.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < codePoints.length; i++) view.setUint32(i * 4, codePoints[i] ?? 0, true);
  return bytes;
}

export function decodeCodePoints(bytes: Uint8Array): Uint32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const codePoints = new Uint32Array(Math.floor(bytes.byteLength / 4));
  for (let i = 0; i < codePoints.length; i++) codePoints[i] = view.getUint32(i * 4, true);
  return codePoints;
}

/** Stores a font's code points (sorted here) under its cache key. */
export async function storeCodePoints(store: Storage, sha256: string, codePoints: Iterable<number>): Promise<void> {
  const sorted = Uint32Array.from([...codePoints].filter(isRealCharacter)).sort();
  await store.put(cmapKey(sha256), encodeCodePoints(sorted), { durable: false });
}
