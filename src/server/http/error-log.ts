import { log } from '../log.ts';

// A fault of ours is logged once with what helps to find it: the request id, the route and, for a
// database error, the start of the statement and the driver's own message. Query parameters are
// never logged (they hold what users typed), and the same error repeated by a flood of requests is
// written once a minute with a count, so nobody can fill the log by repeating a bad request.

const REPEAT_WINDOW_MS = 60_000;
const seen = new Map<string, { at: number; suppressed: number }>();

interface QueryError {
  query?: unknown;
  cause?: unknown;
}

function summarise(error: unknown): { kind: string; message: string; statement?: string; code?: string } {
  const err = error instanceof Error ? error : new Error(String(error));
  const { query, cause } = err as Error & QueryError;
  if (typeof query === 'string') {
    const driver = cause instanceof Error ? cause : undefined;
    return {
      kind: 'database',
      // The statement's first words name it ("select … from fonts where …") without any value.
      statement: query.replace(/\s+/g, ' ').slice(0, 120),
      message: driver?.message.slice(0, 300) ?? 'query failed',
      ...(driver && 'code' in driver ? { code: String((driver as { code: unknown }).code) } : {}),
    };
  }
  return { kind: err.name, message: err.message.slice(0, 300) };
}

/** Logs an unexpected error of a request, without parameters and at most once a minute per kind. */
export function logUnexpected(error: unknown, reqId: string, path: string, now = Date.now()): void {
  const summary = summarise(error);
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
