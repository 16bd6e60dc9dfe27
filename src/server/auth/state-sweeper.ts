import { claimSiteRun } from '../cluster/site-task.ts';
import { db } from '../db/client.ts';
import { log } from '../log.ts';
import type { AuthContext } from './context.ts';
import { sweepRateCounters } from './shared-limiter.ts';

// Rate counters, puzzles and verifications are rows that only matter until they expire; one node of
// the site deletes the expired ones every few minutes (cluster/site-task.ts picks it each time).

const EVERY_MS = 5 * 60_000;

/** Deletes expired rate counters, captcha puzzles and verifications by the context's clock; answers how many went. */
export async function sweepAuthState(ctx: AuthContext): Promise<number> {
  const counters = await sweepRateCounters(await db(), new Date(ctx.clock()));
  return counters + (await ctx.captcha.sweep());
}

let timer: NodeJS.Timeout | undefined;

/** Sweeps every five minutes; the timer is unref'd so it never keeps a process alive, and starts once. */
export function startAuthStateSweeper(ctx: AuthContext): void {
  if (timer) return;
  timer = setInterval(
    () =>
      void claimSiteRun('auth-state-sweep', EVERY_MS)
        .then((mine) => (mine ? sweepAuthState(ctx) : 0))
        .then(
          (removed) => removed > 0 && log().debug({ removed }, 'expired rate counters and captchas removed'),
          (error: unknown) => log().error({ err: error }, 'rate counter and captcha sweep failed'),
        ),
    EVERY_MS,
  );
  timer.unref();
}
