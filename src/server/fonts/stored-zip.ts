import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import zlib from 'node:zlib';
import {
  type GetOptions,
  RangeNotSatisfiableError,
  resolveRange,
  type Storage,
  type StorageObject,
} from '../storage/index.ts';

// Zips of stored fonts whose every byte is known before the first one is sent: the fonts are stored
// as they are (no compression: TrueType outlines barely compress, and a family zip of hundreds of MB
// would otherwise keep a core busy), each entry's CRC-32 is known ahead (cached in storage beside the
// fonts), so the local headers carry it and the archive's size and layout follow from the entries
// alone. The answer can then say its Content-Length, serve any Range (a broken-off download resumes)
// and be the same bytes on every request (If-Range holds). archiver cannot: it writes as it reads.

/** One file of a zip: a stored object (a font) or bytes in memory (a licence, a README). */
export type ZipEntry = { name: string } & ({ key: string; size: number; crc32: number } | { bytes: Uint8Array });

/** A part of the archive: bytes in memory, or a slice of a stored object. */
type Part = { length: number } & ({ bytes: Uint8Array } | { key: string; offset: number });
type Segment = Part & { start: number };

/** The layout of a zip: its size and its parts in order. */
export interface ZipLayout {
  size: number;
  segments: Segment[];
  mtime: Date;
}

const ZIP32_LIMIT = 0xffffffff;

/** The DOS date and time a zip records (local fields, 2-second steps). */
function dosDateTime(date: Date): { time: number; date: number } {
  const year = Math.max(1980, date.getUTCFullYear());
  return {
    time: (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | Math.floor(date.getUTCSeconds() / 2),
    date: ((year - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate(),
  };
}

/**
 * Lays out a store-only zip of the entries (UTF-8 names). Throws when it would need ZIP64 (4 GB),
 * which no album of the library comes near.
 */
export function zipLayout(entries: readonly ZipEntry[], mtime: Date): ZipLayout {
  const { time, date } = dosDateTime(mtime);
  const segments: Segment[] = [];
  const central: Uint8Array[] = [];
  let at = 0;
  const push = (segment: Part) => {
    segments.push({ ...segment, start: at });
    at += segment.length;
  };
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const size = 'bytes' in entry ? entry.bytes.byteLength : entry.size;
    const crc = 'bytes' in entry ? zlib.crc32(entry.bytes) : entry.crc32;
    const offset = at;
    const local = Buffer.alloc(30 + name.length);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(10, 4); // version needed: stored
    local.writeUInt16LE(0x0800, 6); // names are UTF-8
    local.writeUInt16LE(0, 8); // stored
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(size, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    name.copy(local, 30);
    push({ bytes: local, length: local.length });
    if ('bytes' in entry) push({ bytes: entry.bytes, length: size });
    else if (size > 0) push({ key: entry.key, offset: 0, length: size });
    const record = Buffer.alloc(46 + name.length);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE((3 << 8) | 20, 4); // made by: Unix, zip 2.0
    record.writeUInt16LE(10, 6);
    record.writeUInt16LE(0x0800, 8);
    record.writeUInt16LE(0, 10);
    record.writeUInt16LE(time, 12);
    record.writeUInt16LE(date, 14);
    record.writeUInt32LE(crc >>> 0, 16);
    record.writeUInt32LE(size, 20);
    record.writeUInt32LE(size, 24);
    record.writeUInt16LE(name.length, 28);
    record.writeUInt32LE((0o100644 << 16) >>> 0, 38); // a regular file, rw-r--r--
    record.writeUInt32LE(offset, 42);
    name.copy(record, 46);
    central.push(record);
    if (at > ZIP32_LIMIT) throw new Error('the zip would pass 4 GB');
  }
  const directoryAt = at;
  for (const record of central) push({ bytes: record, length: record.byteLength });
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(at - directoryAt, 12);
  end.writeUInt32LE(directoryAt, 16);
  push({ bytes: end, length: end.length });
  if (entries.length > 0xffff || at > ZIP32_LIMIT) throw new Error('the zip would need ZIP64');
  return { size: at, segments, mtime };
}

/**
 * Opens a laid-out zip as storage opens an object: the whole, or the bytes a range asks for,
 * streamed part by part from memory and storage (a font is read only where the range covers it).
 */
export function openZip(layout: ZipLayout, store: Storage, options: GetOptions = {}): StorageObject {
  const range = options.range ? resolveRange(options.range, layout.size) : undefined;
  if (options.range && !range) throw new RangeNotSatisfiableError(layout.size);
  const first = range?.start ?? 0;
  const last = range?.end ?? layout.size - 1;
  async function* parts(): AsyncGenerator<Uint8Array> {
    for (const segment of layout.segments) {
      const from = Math.max(first, segment.start);
      const to = Math.min(last, segment.start + segment.length - 1);
      if (from > to) continue;
      if ('bytes' in segment) {
        yield segment.bytes.subarray(from - segment.start, to - segment.start + 1);
        continue;
      }
      const start = segment.offset + (from - segment.start);
      const object = await store.get(segment.key, { range: { start, end: start + (to - from) } });
      if (!object) throw new Error(`${segment.key} is missing from storage`);
      yield* object.body;
    }
  }
  return {
    size: layout.size,
    mtime: layout.mtime,
    body: Readable.from(parts(), { objectMode: false }),
    ...(range ? { range } : {}),
  };
}

/** The CRC-32 of a stored font, cached beside it (`zipcrc/<sha>`) after the first time it is read. */
export async function storedCrc32(store: Storage, file: { fileKey: string; sha256: string }): Promise<number> {
  const key = crcKey(file.sha256);
  const cached = await store.get(key);
  if (cached) return Buffer.from(await buffer(cached.body)).readUInt32BE(0);
  const object = await store.get(file.fileKey);
  if (!object) throw new Error(`${file.fileKey} is missing from storage`);
  let crc = 0;
  for await (const chunk of object.body) crc = zlib.crc32(chunk as Uint8Array, crc);
  await storeCrc32(store, file.sha256, crc);
  return crc;
}

function crcKey(sha256: string): string {
  return `zipcrc/${sha256.slice(0, 32)}`;
}

/** Caches a font's CRC-32 (the seeding does while it has the bytes). */
export async function storeCrc32(store: Storage, sha256: string, crc: number): Promise<void> {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(crc >>> 0, 0);
  await store.put(crcKey(sha256), bytes, { durable: false });
}
