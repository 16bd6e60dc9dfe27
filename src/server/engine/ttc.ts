import { FontInputError } from './font-errors.ts';
import { readSfnt, viewOf, writeSfnt } from './sfnt.ts';

// A TrueType/OpenType collection (TTC) holds several fonts that share tables. Every format the
// tools write holds one font, so one member is copied out into a standalone font.

const MAX_FACES = 256;

/** How many fonts a collection holds. */
export function collectionSize(ttc: Uint8Array): number {
  if (ttc.byteLength < 12) throw new FontInputError('truncated', 'TTC header');
  const count = viewOf(ttc).getUint32(8);
  if (count === 0 || count > MAX_FACES) throw new FontInputError('corrupt', `TTC with ${count} fonts`);
  if (ttc.byteLength < 12 + count * 4) throw new FontInputError('truncated', 'TTC offsets');
  return count;
}

/** Copies font number `index` (from 0) out of a collection as a standalone TTF/OTF. */
export function extractCollectionFace(ttc: Uint8Array, index: number): Uint8Array {
  const count = collectionSize(ttc);
  if (!Number.isInteger(index) || index < 0 || index >= count) {
    throw new FontInputError(
      'face-index',
      `index ${index} of ${count}`,
      `字体集合中只有 ${count} 款字体（序号 0–${count - 1}）`,
    );
  }
  const directory = viewOf(ttc).getUint32(12 + index * 4);
  return writeSfnt(readSfnt(ttc, directory));
}
