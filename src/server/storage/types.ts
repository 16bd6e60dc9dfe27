import type { Readable } from 'node:stream';

/** What can be stored: bytes in memory, a web stream or a Node stream of bytes. */
export type StorageBody = Uint8Array | ReadableStream<Uint8Array> | NodeJS.ReadableStream;

/** Size and last change of a stored object. */
export interface StorageStat {
  size: number;
  mtime: Date;
}

/** How an object is stored. */
export interface PutOptions {
  /** Flush to disk before answering (default true). */
  durable?: boolean;
  /**
   * Also keep the bytes in this process's memory for a while (small objects that are read right
   * after they are written, such as preview subsets): reads then skip the disk or the network.
   */
  hot?: boolean;
}

/**
 * A part of an object to read, as an HTTP Range names it: from `start` to `end` (inclusive; to the
 * last byte when `end` is left out or lies past it), or the last `suffix` bytes.
 */
export type RangeRequest = { start: number; end?: number } | { suffix: number };

/** The bytes a range covers once the object's size is known: first and last, inclusive. */
export interface ByteRange {
  start: number;
  end: number;
}

/** How an object is read. */
export interface GetOptions {
  /** Only this part; `StorageObject.range` then tells which bytes the body holds. */
  range?: RangeRequest | undefined;
}

/** A stored object opened for reading. */
export interface StorageObject extends StorageStat {
  /** The object's bytes, or only those of `range` when a range was asked for. */
  body: Readable;
  /** The bytes of `body`, when they were read from memory. */
  bytes?: Uint8Array;
  /** Which bytes `body` holds, when a range was asked for; `size` stays the whole object's. */
  range?: ByteRange;
}

/** A presigned request the browser makes straight to storage, with the headers it must send. */
export interface PresignedRequest {
  url: string;
  headers: Record<string, string>;
}

/** What a presigned upload allows: one object of exactly `size` bytes of `type`, for `expiresSeconds`. */
export interface PresignPutOptions {
  size: number;
  type: string;
  expiresSeconds: number;
  now: Date;
}

/** What a presigned download answers with: the Content-Disposition and Content-Type to send. */
export interface PresignGetOptions {
  disposition: string;
  type: string;
  expiresSeconds: number;
  now: Date;
}

/**
 * Where files of the site live (fonts, generated subsets, uploads). Keys are relative paths such
 * as 'fonts/noto-sans-sc/NotoSansSC_400Regular.ttf'; the local driver keeps them under DATA_DIR,
 * and another driver (S3) can take its place without callers changing.
 */
export interface Storage {
  /**
   * Stores an object atomically: readers see the old object or the whole new one, never a part.
   * `durable: false` skips flushing to disk, for derived files that can be made again (subsets).
   */
  put(key: string, body: StorageBody, options?: PutOptions): Promise<StorageStat>;
  /**
   * Opens an object for reading, or answers undefined when there is none. With a range, the body
   * holds only that part; a range that starts past the end throws RangeNotSatisfiableError.
   */
  get(key: string, options?: GetOptions): Promise<StorageObject | undefined>;
  /** Size and time of an object, or undefined when there is none. */
  stat(key: string): Promise<StorageStat | undefined>;
  /** Removes an object; removing a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** The keys of every object under a folder ('tools/tmp' lists 'tools/tmp/…'), in no set order. */
  list(prefix: string): Promise<string[]>;
  /** Removes every object under a folder, and the folder itself. */
  deleteTree(prefix: string): Promise<void>;
  /** The public path that serves the object, '/files/<key>'. */
  url(key: string): string;
  /**
   * The file on this machine that holds the object, for readers that map a file rather than hold
   * its bytes (Skia drawing a library font); undefined when objects are elsewhere (a bucket).
   */
  localFile(key: string): string | undefined;
  /**
   * Removes what a killed process left behind, untouched since `before`: partial writes, and empty
   * folders under `prefix` (a short-lived area such as 'tools'). Answers how many were removed.
   */
  sweepLeftovers(before: Date, prefix: string): Promise<number>;
  /**
   * A URL the browser PUTs one object to: the site's own PUT /files/<key> for local files, the
   * bucket itself for S3. A request with another size or type is refused by whoever checks it.
   */
  presignPut(key: string, options: PresignPutOptions): Promise<PresignedRequest>;
  /**
   * A URL the browser downloads an object from directly, or undefined when the site serves it itself
   * (local files: the bytes are on this machine anyway).
   */
  presignGet(key: string, options: PresignGetOptions): Promise<string | undefined>;
}

/** Thrown by get for a range that lies wholly past the end of the object (HTTP 416). */
export class RangeNotSatisfiableError extends Error {
  override name = 'RangeNotSatisfiableError';
  /** The object's size, for Content-Range: bytes *\/size. */
  readonly size: number;

  constructor(size: number) {
    super(`Range not satisfiable for an object of ${size} bytes`);
    this.size = size;
  }
}

/** The bytes a range covers in an object of `size` bytes, or undefined when it covers none. */
export function resolveRange(range: RangeRequest, size: number): ByteRange | undefined {
  if ('suffix' in range)
    return range.suffix > 0 && size > 0 ? { start: Math.max(0, size - range.suffix), end: size - 1 } : undefined;
  if (range.start >= size) return undefined;
  return { start: range.start, end: Math.min(range.end ?? size - 1, size - 1) };
}

/** Thrown for a key that could escape the storage root or that no driver can hold. */
export class StorageKeyError extends Error {
  override name = 'StorageKeyError';
}

// Segments of letters, digits, '.', '_' and '-', none starting with '.', so '..', hidden files
// and the drivers' own temporary names can never be addressed.
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
const MAX_KEY_LENGTH = 512;

/** Checks a storage key and returns it; throws StorageKeyError for '..', absolute paths and odd characters. */
export function validateKey(key: string): string {
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw new StorageKeyError(`Invalid storage key length: ${JSON.stringify(key)}`);
  }
  const segments = key.split('/');
  if (!segments.every((segment) => SEGMENT.test(segment))) {
    throw new StorageKeyError(`Invalid storage key: ${JSON.stringify(key)}`);
  }
  return key;
}

const CONTENT_TYPES: Record<string, string> = {
  ttf: 'font/ttf',
  otf: 'font/otf',
  woff: 'font/woff',
  woff2: 'font/woff2',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  mp4: 'video/mp4',
  webm: 'video/webm',
  vtt: 'text/vtt; charset=utf-8',
  gif: 'image/gif',
  zip: 'application/zip',
  txt: 'text/plain; charset=utf-8',
  json: 'application/json',
};

/** The Content-Type of a stored object, from its extension; unknown kinds are plain bytes. */
export function contentTypeOf(key: string): string {
  const extension = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  return CONTENT_TYPES[extension] ?? 'application/octet-stream';
}

/** The public path of a key, '/files/<key>'. */
export function publicPath(key: string): string {
  return `/files/${validateKey(key)}`;
}
