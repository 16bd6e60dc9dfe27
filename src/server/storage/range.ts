// Byte ranges of stored files (RFC 9110 §14): a player seeks by asking for the part it needs. One
// range per request: several would need a multipart/byteranges answer, which media players never
// ask for; a request with several is answered with the whole file, which the RFC allows.

/** The bytes asked for, both ends included. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * What a Range header asks of an object of `size` bytes: `undefined` for the whole object (no
 * header, another unit, several ranges or a malformed one, which the RFC says to ignore),
 * 'unsatisfiable' when no byte of it exists, else the one range (clamped to the object).
 */
export function parseRange(header: string | undefined | null, size: number): ByteRange | 'unsatisfiable' | undefined {
  if (!header) return undefined;
  const match = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header.trim());
  if (!match) return undefined;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return undefined;
  if (first === '') {
    // A suffix: the last N bytes.
    const length = Number(last);
    if (length === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  const end = last === '' ? size - 1 : Number(last);
  return { start, end: Math.min(end, size - 1) };
}
