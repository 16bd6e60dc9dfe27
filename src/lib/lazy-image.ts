// Lazy images with SPEC §9's constants: an image starts loading when it comes within 1.3 screen
// heights, positions are checked at most every 200 ms, a failed load is tried three times, and the
// last 200 loaded addresses are remembered so they show at once when they appear again.

/** SPEC §9 constants of the lazy image. */
export const LAZY_IMAGE = {
  preloadFactor: 1.3,
  throttleMs: 200,
  maxAttempts: 3,
  cacheSize: 200,
} as const;

/** The part of a DOMRect the check needs. */
export interface Box {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/** True when `box` lies within the viewport stretched by `factor` (1.3 = 30 % beyond the edge). */
export function isInPreloadZone(box: Box, viewport: { width: number; height: number }, factor: number): boolean {
  const extraY = viewport.height * (factor - 1);
  const extraX = viewport.width * (factor - 1);
  return (
    box.top < viewport.height + extraY &&
    box.bottom > -extraY &&
    box.left < viewport.width + extraX &&
    box.right > -extraX
  );
}

/** Runs `fn` at most once per `ms`, and once more after the last call so the final state is seen. */
export function throttle<A extends unknown[]>(fn: (...args: A) => void, ms: number): (...args: A) => void {
  let last = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | undefined;
  return (...args: A) => {
    const now = Date.now();
    const wait = last + ms - now;
    if (wait <= 0) {
      last = now;
      fn(...args);
      return;
    }
    clearTimeout(timer);
    timer = setTimeout(() => {
      last = Date.now();
      fn(...args);
    }, wait);
  };
}

/** A set of recently loaded addresses that forgets the oldest beyond `capacity`. */
export class RecentSet {
  readonly #capacity: number;
  readonly #items = new Set<string>();

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** Remembers `key` as the most recent. */
  add(key: string): void {
    this.#items.delete(key);
    this.#items.add(key);
    while (this.#items.size > this.#capacity) {
      const oldest = this.#items.values().next().value;
      if (oldest === undefined) break;
      this.#items.delete(oldest);
    }
  }

  /** True when `key` is remembered. */
  has(key: string): boolean {
    return this.#items.has(key);
  }

  /** How many addresses are remembered. */
  get size(): number {
    return this.#items.size;
  }
}

/** Tries `load` up to `attempts` times; resolves on the first success, rejects after the last failure. */
export async function loadWithRetry(
  load: () => Promise<void>,
  attempts: number = LAZY_IMAGE.maxAttempts,
): Promise<void> {
  let failure: unknown;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      await load();
      return;
    } catch (error) {
      failure = error;
    }
  }
  throw failure;
}
