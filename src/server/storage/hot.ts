import { Readable } from 'node:stream';
import { LRUCache } from 'lru-cache';
import { gaugeCache } from '../engine/memory-gauges.ts';
import {
  type GetOptions,
  type PresignedRequest,
  type PresignGetOptions,
  type PresignPutOptions,
  type PutOptions,
  RangeNotSatisfiableError,
  resolveRange,
  type Storage,
  type StorageBody,
  type StorageObject,
  type StorageStat,
} from './types.ts';

/** Memory kept for hot objects: a few thousand preview subsets of a few KB each. */
const HOT_LIMIT_BYTES = 32 * 1024 * 1024;

/**
 * A storage with a memory in front for objects written with `hot: true`: a preview subset is asked
 * for by the browser a millisecond after it is made, and its bytes are still at hand. Everything
 * else, and hot objects once pushed out of memory, comes from the driver.
 */
export class HotStorage implements Storage {
  readonly #driver: Storage;
  readonly #hot = new LRUCache<string, { bytes: Uint8Array; mtime: Date }>({
    maxSize: HOT_LIMIT_BYTES,
    sizeCalculation: (entry) => Math.max(1, entry.bytes.byteLength),
  });

  constructor(driver: Storage) {
    this.#driver = driver;
    gaugeCache('hot storage', this.#hot);
  }

  async put(key: string, body: StorageBody, options: PutOptions = {}): Promise<StorageStat> {
    this.#hot.delete(key);
    const stat = await this.#driver.put(key, body, options);
    if (options.hot && body instanceof Uint8Array) this.#hot.set(key, { bytes: body, mtime: stat.mtime });
    return stat;
  }

  async get(key: string, options: GetOptions = {}): Promise<StorageObject | undefined> {
    const hot = this.#hot.get(key);
    if (!hot) return this.#driver.get(key, options);
    const size = hot.bytes.byteLength;
    if (!options.range) return { size, mtime: hot.mtime, bytes: hot.bytes, body: Readable.from([hot.bytes]) };
    const range = resolveRange(options.range, size);
    if (!range) throw new RangeNotSatisfiableError(size);
    const bytes = hot.bytes.subarray(range.start, range.end + 1);
    return { size, mtime: hot.mtime, range, bytes, body: Readable.from([bytes]) };
  }

  async stat(key: string): Promise<StorageStat | undefined> {
    const hot = this.#hot.get(key);
    return hot ? { size: hot.bytes.byteLength, mtime: hot.mtime } : this.#driver.stat(key);
  }

  async delete(key: string): Promise<void> {
    this.#hot.delete(key);
    await this.#driver.delete(key);
  }

  list(prefix: string): Promise<string[]> {
    return this.#driver.list(prefix);
  }

  async deleteTree(prefix: string): Promise<void> {
    for (const key of [...this.#hot.keys()]) if (key.startsWith(`${prefix}/`)) this.#hot.delete(key);
    await this.#driver.deleteTree(prefix);
  }

  url(key: string): string {
    return this.#driver.url(key);
  }

  localFile(key: string): string | undefined {
    return this.#driver.localFile(key);
  }

  sweepLeftovers(before: Date, prefix: string): Promise<number> {
    return this.#driver.sweepLeftovers(before, prefix);
  }

  presignPut(key: string, options: PresignPutOptions): Promise<PresignedRequest> {
    return this.#driver.presignPut(key, options);
  }

  presignGet(key: string, options: PresignGetOptions): Promise<string | undefined> {
    return this.#driver.presignGet(key, options);
  }
}
