import pino, { type Logger } from 'pino';
import { env } from './env.ts';
import { serializeError } from './error-summary.ts';

let root: Logger | undefined;

/** The process logger: structured JSON lines (pino), level from LOG_LEVEL. */
export function log(): Logger {
  root ??= pino({
    level: env().LOG_LEVEL,
    base: { service: 'font-alliance' },
    redact: ['req.headers.cookie', 'req.headers["alliance-authenticate"]', '*.password', '*.token'],
    // A failed query's values are what users typed: its error is logged without them.
    serializers: { err: serializeError },
  });
  return root;
}
