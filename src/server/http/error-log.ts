import { summariseError } from '../error-summary.ts';
import { log } from '../log.ts';

// A fault of ours is logged once with what helps to find it: the request id, the route and, for a
// database error, the start of the statement and the driver's own message. Query parameters are
// never logged (they hold what users typed), and the same error repeated by a flood of requests is
// written once a minute with a count, so nobody can fill the log by repeating a bad request.

const REPEAT_WINDOW_MS = 60_000;
const seen = new Map<string, { at: number; suppressed: number }>();

/** Logs an unexpected error of a request, without parameters and at most once a minute per kind. */
export function logUnexpected(error: unknown, reqId: string, path: string, now = Date.now()): void {
  const summary = summariseError(error);
  const key = `${summary.kind}|${summary.statement ?? ''}|${summary.message}`;
  const last = seen.get(key);
  if (last && now - last.at < REPEAT_WINDOW_MS) {
    last.suppressed++;
    return;
  }
  const repeated = last?.suppressed ?? 0;
  seen.set(key, { at: now, suppressed: 0 });
  if (seen.size > 1000) seen.delete(seen.keys().next().value as string);
  const stack =
    error instanceof Error && summary.kind !== 'database' ? error.stack?.split('\n').slice(0, 6).join('\n') : undefined;
  log().error(
    { reqId, path, error: summary, ...(stack ? { stack } : {}), ...(repeated ? { repeated } : {}) },
    'unhandled error',
  );
}
