/** Milliseconds since the epoch; services take one so that tests can move time without touching Date. */
export type Clock = () => number;

/** The real clock. */
export const systemClock: Clock = () => Date.now();

/** A clock that stands still until a test moves it. */
export interface ManualClock {
  (): number;
  /** Moves time forward by `ms` milliseconds. */
  advance(ms: number): void;
  /** Sets the time to `ms` since the epoch. */
  set(ms: number): void;
}

/** Creates a clock that only moves when told to (for tests). */
export function manualClock(start = Date.UTC(2026, 0, 1)): ManualClock {
  let now = start;
  const clock = (() => now) as ManualClock;
  clock.advance = (ms) => {
    now += ms;
  };
  clock.set = (ms) => {
    now = ms;
  };
  return clock;
}
