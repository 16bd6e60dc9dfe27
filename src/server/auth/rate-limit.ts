import type { Clock } from './clock.ts';

/** The verdict for one key: allowed, or blocked for `retryAfter` more seconds. */
export type LimitVerdict = { allowed: true } | { allowed: false; retryAfter: number };

/**
 * A fixed-window counter per key, kept in this process. The site's limits use the shared one
 * (shared-limiter.ts), which every node counts in; this one is for counts a node may keep alone.
 */
export interface RateLimiter {
  /** Whether the key is still below its limit, without counting anything. */
  check(key: string): LimitVerdict;
  /** Counts one event for the key and answers whether it was still within the limit. */
  hit(key: string): LimitVerdict;
  /** How many events the key's current window holds. */
  count(key: string): number;
  /** Forgets the key (e.g. after a successful login). */
  reset(key: string): void;
}

interface Window {
  count: number;
  endsAt: number;
}

// Past this many keys the expired windows are swept, so a flood of new keys cannot grow memory for ever.
const SWEEP_AT = 10_000;

/**
 * Creates a limiter that allows `limit` events per key in each window of `windowMs`. It lives in
 * this process: behind several nodes each node counts on its own (README "Running several nodes").
 */
export function createRateLimiter(options: { limit: number; windowMs: number; clock: Clock }): RateLimiter {
  const windows = new Map<string, Window>();

  function current(key: string): Window | undefined {
    const window = windows.get(key);
    if (window && window.endsAt <= options.clock()) {
      windows.delete(key);
      return undefined;
    }
    return window;
  }

  function blocked(window: Window): LimitVerdict {
    return { allowed: false, retryAfter: Math.max(1, Math.ceil((window.endsAt - options.clock()) / 1000)) };
  }

  function sweep(): void {
    const now = options.clock();
    for (const [key, window] of windows) if (window.endsAt <= now) windows.delete(key);
  }

  return {
    check(key) {
      const window = current(key);
      return window && window.count >= options.limit ? blocked(window) : { allowed: true };
    },
    hit(key) {
      let window = current(key);
      if (!window) {
        if (windows.size >= SWEEP_AT) sweep();
        window = { count: 0, endsAt: options.clock() + options.windowMs };
        windows.set(key, window);
      }
      if (window.count >= options.limit) return blocked(window);
      window.count += 1;
      return { allowed: true };
    },
    count(key) {
      return current(key)?.count ?? 0;
    },
    reset(key) {
      windows.delete(key);
    },
  };
}
