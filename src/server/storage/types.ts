import type { Readable } from 'node:stream';
import type { ByteRange } from './range.ts';

export type { ByteRange } from './range.ts';

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

/** A stored object opened for reading. */
export interface StorageObject extends StorageStat {
  body: Readable;
  /** The whole object, when it was read from memory. */
  bytes?: Uint8Array;
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
   * Opens an object for reading, or answers undefined when there is none. With `range`, the body
   * holds only those bytes (both ends included); `size` is still the whole object's.
   */
  get(key: string, range?: ByteRange): Promise<StorageObject | undefined>;
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
   * Removes what a killed process left behind, untouched since `before`: partial writes, and empty
   * folders under `prefix` (a short-lived area such as 'tools'). Answers how many were removed.
   */
  sweepLeftovers(before: Date, prefix: string): Promise<number>;
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

/** The public path of a key, '/files/<key>'. */
export function publicPath(key: string): string {
  return `/files/${validateKey(key)}`;
}
