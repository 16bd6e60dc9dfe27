import { describe, expect, test } from 'vitest';
import { manualClock } from '../../src/server/auth/clock.ts';
import { createRateLimiter } from '../../src/server/auth/rate-limit.ts';

describe('createRateLimiter', () => {
  test('allows the limit within a window, then blocks with the seconds left, then allows again', () => {
    const clock = manualClock(0);
    const limiter = createRateLimiter({ limit: 3, windowMs: 60_000, clock });
    for (let i = 0; i < 3; i += 1) expect(limiter.hit('ip:1')).toEqual({ allowed: true });
    expect(limiter.hit('ip:1')).toEqual({ allowed: false, retryAfter: 60 });
    clock.advance(59_001);
    expect(limiter.check('ip:1')).toEqual({ allowed: false, retryAfter: 1 });
    clock.advance(999);
    expect(limiter.hit('ip:1')).toEqual({ allowed: true });
  });

  test('counts each key on its own, and check never counts', () => {
    const limiter = createRateLimiter({ limit: 1, windowMs: 1000, clock: manualClock(0) });
    for (let i = 0; i < 5; i += 1) expect(limiter.check('a')).toEqual({ allowed: true });
    limiter.hit('a');
    expect(limiter.check('a').allowed).toBe(false);
    expect(limiter.hit('b')).toEqual({ allowed: true });
  });

  test('forgets a key on reset', () => {
    const limiter = createRateLimiter({ limit: 1, windowMs: 1000, clock: manualClock(0) });
    limiter.hit('a');
    limiter.reset('a');
    expect(limiter.hit('a')).toEqual({ allowed: true });
  });
});
