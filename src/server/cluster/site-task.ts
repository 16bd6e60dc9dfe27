import { createSharedLimiter } from '../auth/shared-limiter.ts';
import type { Db } from '../db/client.ts';

// Periodic work that writes shared state (sweeping expired rows and files) is done by one node of the
// site each period: every node's timer asks, and the first to ask in a period gets it. The claim is a
// shared fixed-window counter with a limit of one (rate_counters, one statement), so it holds across
// nodes without a leader, on PGlite as on PostgreSQL, and a node that dies leaves the next period to
// whichever node asks first.

/**
 * Answers true on exactly one node of the site per period of `everyMs` for the task `name` (on the
 * first node to ask), false on the others. The period is a little shorter than the timers' interval,
 * so that a node's next tick finds the previous period ended whatever the timers' drift.
 */
export async function claimSiteRun(name: string, everyMs: number, database?: () => Promise<Db>): Promise<boolean> {
  const limiter = createSharedLimiter({
    name: 'site-task',
    limit: 1,
    windowMs: Math.max(1_000, Math.floor(everyMs * 0.9)),
    clock: Date.now,
    ...(database ? { database } : {}),
  });
  return (await limiter.hit(name)).allowed;
}
