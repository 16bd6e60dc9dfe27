// What each of this thread's caches holds, in bytes, by name: every cache bounded in bytes reports its
// count here, so that the memory probe of the soak (tests/bench/loop-delay.ts) and an operator can see
// which part of the process's memory a cache is, against its bound. The register hangs off globalThis:
// the Astro bundle and the start script each load their own copy of a module in the main thread, and
// both must report into one list.

/** What a cache holds now: its counted bytes and, when it has one, its bound and number of entries. */
export interface GaugeReading {
  bytes: number;
  limitBytes?: number | undefined;
  entries?: number | undefined;
}

const REGISTER = Symbol.for('font-alliance.memory-gauges');
const holder = globalThis as { [REGISTER]?: Map<string, () => GaugeReading> };
holder[REGISTER] ??= new Map();
const register = holder[REGISTER];

/** Reports a cache under `name` (one per thread; a later call under the same name replaces it). */
export function gauge(name: string, read: () => GaugeReading): void {
  register.set(name, read);
}

/** This thread's caches as they are now, by name. */
export function gaugeReadings(): Record<string, GaugeReading> {
  return Object.fromEntries([...register].map(([name, read]) => [name, read()]));
}
