import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { manualClock } from '../../src/server/auth/clock.ts';
import { createSharedLimiter, sweepRateCounters } from '../../src/server/auth/shared-limiter.ts';
import { type Database, openDatabase } from '../../src/server/db/client.ts';
import { rateCounters } from '../../src/server/db/schema/index.ts';
import { openTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../helpers/database.ts';

// The limiter every node counts in: one row per key, each operation one statement. On PostgreSQL a
// second connection pool stands for a second node over the same database.

let database: TestDatabase;
let otherNode: Database | undefined;
const clock = manualClock(Date.UTC(2026, 5, 1));

beforeAll(async () => {
  database = await openTestDatabase();
  if (TEST_DATABASE_URL) otherNode = await openDatabase(database.target.options);
});
afterAll(async () => {
  await otherNode?.close();
  await database?.close();
});

let names = 0;
function limiterPair(limit: number, windowMs = 60_000) {
  names += 1;
  const name = `test${names}`;
  const here = createSharedLimiter({ name, limit, windowMs, clock, database: async () => database.db });
  const there = createSharedLimiter({
    name,
    limit,
    windowMs,
    clock,
    database: async () => (otherNode ?? database).db,
  });
  return { here, there };
}

describe('the shared rate limiter', () => {
  test('allows `limit` hits, then blocks until the window ends without counting the blocked ones', async () => {
    const { here } = limiterPair(3);
    for (let i = 0; i < 3; i += 1) expect(await here.hit('ip:1')).toEqual({ allowed: true });
    clock.advance(20_000);
    expect(await here.hit('ip:1')).toEqual({ allowed: false, retryAfter: 40 });
    expect(await here.check('ip:1')).toEqual({ allowed: false, retryAfter: 40 });
    expect(await here.count('ip:1')).toBe(3);
    // Another key has its own window.
    expect(await here.check('ip:2')).toEqual({ allowed: true });
    clock.advance(40_000);
    expect(await here.check('ip:1')).toEqual({ allowed: true });
    expect(await here.count('ip:1')).toBe(0);
    expect(await here.hit('ip:1')).toEqual({ allowed: true });
    expect(await here.count('ip:1')).toBe(1);
  });

  test('check counts nothing, and reset forgets the key', async () => {
    const { here } = limiterPair(1);
    expect(await here.check('k')).toEqual({ allowed: true });
    expect(await here.check('k')).toEqual({ allowed: true });
    expect(await here.hit('k')).toEqual({ allowed: true });
    expect((await here.hit('k')).allowed).toBe(false);
    await here.reset('k');
    expect(await here.hit('k')).toEqual({ allowed: true });
  });

  test('release gives back one hit of the current window, never below none, and not of an ended window', async () => {
    const { here, there } = limiterPair(2);
    expect(await here.hit('r')).toEqual({ allowed: true });
    expect(await here.hit('r')).toEqual({ allowed: true });
    await there.release('r');
    expect(await here.count('r')).toBe(1);
    expect(await here.hit('r')).toEqual({ allowed: true });
    expect((await here.hit('r')).allowed).toBe(false);
    for (let i = 0; i < 4; i += 1) await here.release('r');
    expect(await here.count('r')).toBe(0);
    await here.release('never-hit');
    expect(await here.count('never-hit')).toBe(0);
    clock.advance(60_000);
    await here.release('r');
    expect(await here.hit('r')).toEqual({ allowed: true });
    expect(await here.count('r')).toBe(1);
  });

  test('limiters of different names keep apart, the same name on two nodes counts together', async () => {
    const first = limiterPair(2);
    const second = limiterPair(2);
    await first.here.hit('ip:9');
    await first.there.hit('ip:9');
    expect((await first.here.hit('ip:9')).allowed).toBe(false);
    expect((await first.there.check('ip:9')).allowed).toBe(false);
    expect(await second.here.count('ip:9')).toBe(0);
    await first.there.reset('ip:9');
    expect(await first.here.count('ip:9')).toBe(0);
  });

  test('many hits at once on one key, from two nodes, allow exactly `limit`', async () => {
    const { here, there } = limiterPair(150);
    const verdicts = await Promise.all(Array.from({ length: 240 }, (_, i) => (i % 2 === 0 ? here : there).hit('busy')));
    expect(verdicts.filter((verdict) => verdict.allowed)).toHaveLength(150);
    expect(await there.count('busy')).toBe(150);
  });

  test('a window that ended starts afresh for hits that come at once', async () => {
    const { here, there } = limiterPair(5, 1000);
    for (let i = 0; i < 5; i += 1) await here.hit('again');
    clock.advance(1000);
    const verdicts = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? here : there).hit('again')));
    expect(verdicts.filter((verdict) => verdict.allowed)).toHaveLength(5);
  });

  test('the sweep deletes the counters whose window has ended, and only those', async () => {
    const { here } = limiterPair(5, 10_000);
    const { here: longer } = limiterPair(5, 60_000);
    await here.hit('short');
    await longer.hit('long');
    clock.advance(10_000);
    await sweepRateCounters(database.db, new Date(clock()));
    const keys = (await database.db.select({ key: rateCounters.key }).from(rateCounters)).map((row) => row.key);
    expect(keys.some((key) => key.endsWith(':short'))).toBe(false);
    expect(keys.some((key) => key.endsWith(':long'))).toBe(true);
    expect(await longer.count('long')).toBe(1);
  });
});
