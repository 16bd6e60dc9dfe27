// What each of this thread's caches holds, in bytes, by name: every cache bounded in bytes reports its
// count here, so that the memory probe of the soak (tests/bench/loop-delay.ts) and an operator can see
// which part of the process's memory a cache is, against its bound. The register hangs off globalThis:
// the Astro bundle and the start script each load their own copy of a module in the main thread, and
// both must report into one list.

/** What a cache holds now: its counted bytes, its bound and its number of entries. */
export interface GaugeReading {
  bytes: number;
  limitBytes: number;
  entries: number;
}

const REGISTER = Symbol.for('font-alliance.memory-gauges');
const holder = globalThis as { [REGISTER]?: Map<string, () => GaugeReading> };
holder[REGISTER] ??= new Map();
const register = holder[REGISTER];

/** A cache bounded in bytes, as lru-cache keeps one: what it counts, its bound and its entries. */
interface BoundedCache {
  readonly calculatedSize: number;
  readonly maxSize: number;
  readonly size: number;
}

/**
 * Reports a cache bounded in bytes under `name`, its counted bytes against its bound (one per thread;
 * a later call under the same name replaces it).
 */
export function gaugeCache(name: string, cache: BoundedCache): void {
  register.set(name, () => ({ bytes: cache.calculatedSize, limitBytes: cache.maxSize, entries: cache.size }));
}

/** This thread's caches as they are now, by name. */
export function gaugeReadings(): Record<string, GaugeReading> {
  return Object.fromEntries([...register].map(([name, read]) => [name, read()]));
}
