import pino from 'pino';

// What an error may say in a log line. A failed database query carries the values it was given
// (drizzle puts them into its message, its stack and a `params` field), and those values are what
// users typed: account names, text, tokens. So a database error is only ever logged as the start of
// its statement and the driver's own message; other errors keep pino's usual fields.

interface QueryError {
  query?: unknown;
  cause?: unknown;
}

/** A short description of an error: its kind and message, and for a database error the statement's start and code. */
export interface ErrorSummary {
  kind: string;
  message: string;
  statement?: string;
  code?: string;
}

/** Describes an error without any value a query was given. */
export function summariseError(error: unknown): ErrorSummary {
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

/** True when the error, or one it was caused by, is a failed query that holds its parameters. */
function isQueryError(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 4) return false;
  if (typeof (error as QueryError).query === 'string' || 'params' in error) return true;
  return isQueryError((error as QueryError).cause, depth + 1);
}

/**
 * The process logger's serializer for `err`: pino's own for ordinary errors, the summary alone (no
 * message with values, no stack, no params) for a failed query or an error wrapping one.
 */
export function serializeError(error: unknown): unknown {
  if (!isQueryError(error)) return pino.stdSerializers.err(error as Error);
  let found: unknown = error;
  while (found instanceof Error && typeof (found as QueryError).query !== 'string' && (found as QueryError).cause) {
    found = (found as QueryError).cause;
  }
  const summary = summariseError(found);
  return { type: summary.kind, message: summary.message, statement: summary.statement, code: summary.code };
}
