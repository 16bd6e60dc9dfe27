import type fsp from 'node:fs/promises';

/** Random access to the bytes of a file being checked, so a check reads only what it needs. */
export interface ByteSource {
  readonly size: number;
  /** Up to `length` bytes from `offset` (fewer at the end of the file). */
  read(offset: number, length: number): Promise<Uint8Array>;
}

/** A source over bytes in memory. */
export function bytesSource(bytes: Uint8Array): ByteSource {
  return {
    size: bytes.byteLength,
    read: async (offset, length) => bytes.subarray(offset, Math.min(bytes.byteLength, offset + length)),
  };
}

/** A source over an open file; the caller closes the handle. */
export async function fileSource(handle: fsp.FileHandle): Promise<ByteSource> {
  const { size } = await handle.stat();
  return {
    size,
    async read(offset, length) {
      const end = Math.min(size, offset + length);
      if (end <= offset) return new Uint8Array(0);
      const buffer = new Uint8Array(end - offset);
      const { bytesRead } = await handle.read(buffer, 0, buffer.byteLength, offset);
      return buffer.subarray(0, bytesRead);
    },
  };
}
