import { and, eq, gt, lte, sql } from 'drizzle-orm';
import { type Db, db } from '../db/client.ts';
import { rateCounters } from '../db/schema/index.ts';
import type { Clock } from './clock.ts';

/** The verdict for one key: allowed, or blocked for `retryAfter` more seconds. */
export type LimitVerdict = { allowed: true } | { allowed: false; retryAfter: number };

/** A fixed-window counter per key, kept in the database so that every node counts together. */
export interface SharedLimiter {
  /** Whether the key is still below its limit, without counting anything. */
  check(key: string): Promise<LimitVerdict>;
  /** Counts one event for the key and answers whether it was still within the limit. */
  hit(key: string): Promise<LimitVerdict>;
  /** How many events the key's current window holds. */
  count(key: string): Promise<number>;
  /** Forgets the key (e.g. after a successful login). */
  reset(key: string): Promise<void>;
  /**
   * Gives back one allowed hit in the current window: a hit taken to reserve a place for an attempt
   * (so that parallel attempts cannot all pass a check before any of them counts) that turned out
   * not to be one.
   */
  release(key: string): Promise<void>;
}

/** What a limiter needs: a name unique on the site (it prefixes the keys), its numbers and a clock. */
export interface SharedLimiterOptions {
  name: string;
  limit: number;
  windowMs: number;
  clock: Clock;
  /** The database (the configured one when not given). */
  database?: () => Promise<Db>;
}

/**
 * Creates a limiter that allows `limit` events per key in each window of `windowMs`. Each key is
 * one row of `rate_counters`, and every operation is one SQL statement: `hit` is an upsert that
 * starts a new window when the old one has ended, so concurrent hits from any number of nodes
 * count exactly. A blocked hit is not counted: the stored count stops at `limit + 1`, which is how
 * the answer of the same statement tells a hit past the limit from the last one allowed.
 */
export function createSharedLimiter(options: SharedLimiterOptions): SharedLimiter {
  const database = options.database ?? db;
  const rowKey = (key: string) => `${options.name}:${key}`;
  const now = () => new Date(options.clock());

  function blocked(windowEndsAt: Date): LimitVerdict {
    return { allowed: false, retryAfter: Math.max(1, Math.ceil((windowEndsAt.getTime() - options.clock()) / 1000)) };
  }

  async function current(key: string) {
    const [row] = await (await database())
      .select({ count: rateCounters.count, windowEndsAt: rateCounters.windowEndsAt })
      .from(rateCounters)
      .where(and(eq(rateCounters.key, rowKey(key)), gt(rateCounters.windowEndsAt, now())));
    return row;
  }

  return {
    async check(key) {
      const row = await current(key);
      return row && row.count >= options.limit ? blocked(row.windowEndsAt) : { allowed: true };
    },
    async hit(key) {
      const at = now();
      const ended = sql`${rateCounters.windowEndsAt} <= ${at.toISOString()}::timestamptz`;
      const [row] = await (await database())
        .insert(rateCounters)
        .values({ key: rowKey(key), count: 1, windowEndsAt: new Date(at.getTime() + options.windowMs) })
        .onConflictDoUpdate({
          target: rateCounters.key,
          set: {
            count: sql`case when ${ended} then 1 else least(${rateCounters.count} + 1, ${options.limit + 1}::int) end`,
            windowEndsAt: sql`case when ${ended} then excluded.window_ends_at else ${rateCounters.windowEndsAt} end`,
          },
        })
        .returning({ count: rateCounters.count, windowEndsAt: rateCounters.windowEndsAt });
      if (!row) throw new Error('rate_counters upsert returned no row');
      return row.count > options.limit ? blocked(row.windowEndsAt) : { allowed: true };
    },
    async count(key) {
      return Math.min(options.limit, (await current(key))?.count ?? 0);
    },
    async reset(key) {
      await (await database()).delete(rateCounters).where(eq(rateCounters.key, rowKey(key)));
    },
    async release(key) {
      await (await database())
        .update(rateCounters)
        .set({ count: sql`greatest(${rateCounters.count} - 1, 0)` })
        .where(and(eq(rateCounters.key, rowKey(key)), gt(rateCounters.windowEndsAt, now())));
    },
  };
}

/** Deletes the counters whose window has ended by `now`; answers how many went. */
export async function sweepRateCounters(handle: Db, now: Date): Promise<number> {
  const gone = await handle
    .delete(rateCounters)
    .where(lte(rateCounters.windowEndsAt, now))
    .returning({ key: rateCounters.key });
  return gone.length;
}
