import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

// State that every node behind the load balancer must see alike (docs/operations.md, "Running several nodes").
// Times come from the services' clock, not from the database's now(), so that tests can move time.

/** One fixed-window counter of a rate limiter: `key` is '<limiter>:<subject>'. */
export const rateCounters = pgTable('rate_counters', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  windowEndsAt: timestamp('window_ends_at', { withTimezone: true }).notNull(),
});

/** A captcha puzzle handed out and not yet answered: one try per token (it is deleted as it is read). */
export const captchaPuzzles = pgTable('captcha_puzzles', {
  token: text('token').primaryKey(),
  /** Where the hole is, in background pixels. */
  x: integer('x').notNull(),
  /** The per-puzzle AES key the answer is encrypted with. */
  secretKey: text('secret_key').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  /** Which puzzle of the chain this is (1-based), and how many the chain has. */
  round: integer('round').notNull(),
  rounds: integer('rounds').notNull(),
  /** The failure keys of whoever asked for the chain ('ip:…', 'uid:…'). */
  failureKeys: text('failure_keys').array().notNull(),
});

/** A passed captcha, usable once by the next action until it expires. */
export const captchaVerifications = pgTable('captcha_verifications', {
  value: text('value').primaryKey(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  /** How many puzzles in a row the pass took. */
  rounds: integer('rounds').notNull(),
});

/**
 * The answer to a write the browser marked with an `Idempotency-Key` (src/server/http/idempotency.ts),
 * kept a day per client ('account:<id>' or 'ip:<hash>'), so that the same write sent again, after its
 * node died before answering, is answered again instead of being done twice. The row is written in the
 * write's own transaction: it exists exactly when the write was committed.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    /** Method, path and a hash of the body: the same key sent with another request is refused. */
    fingerprint: text('fingerprint').notNull(),
    status: integer('status').notNull(),
    contentType: text('content_type').notNull(),
    body: text('body').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] }), index('idempotency_keys_expires_at_idx').on(t.expiresAt)],
);
