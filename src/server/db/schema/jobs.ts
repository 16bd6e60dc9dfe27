import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';

/** The states of a tool job. */
export const JOB_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
/** One state of a tool job. */
export type JobStatus = (typeof JOB_STATUSES)[number];

/**
 * A tool workflow job (SPEC tasks 125 unidentified glyphs, 143 pixel font, 146 pixel preview),
 * persisted so long work survives a slow client and reports progress.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    task: integer('task').notNull(),
    status: text('status').$type<JobStatus>().notNull().default('queued'),
    progress: integer('progress').notNull().default(0),
    input: jsonb('input').$type<unknown>().notNull().default({}),
    result: jsonb('result').$type<unknown>(),
    error: text('error'),
    accountId: integer('account_id').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
  },
  (t) => [
    check('jobs_status_check', sql`${t.status} in ('queued', 'running', 'done', 'failed')`),
    check('jobs_progress_check', sql`${t.progress} between 0 and 100`),
    // Workers claim the oldest queued job; the sweeper removes expired ones.
    index('jobs_status_created_idx').on(t.status, t.createdAt),
    index('jobs_expires_at_idx').on(t.expiresAt),
    index('jobs_account_id_idx').on(t.accountId),
  ],
);
