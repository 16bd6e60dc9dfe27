import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';

/** The states of a tool job. */
export const JOB_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
/** One state of a tool job. */
export type JobStatus = (typeof JOB_STATUSES)[number];

/** Task numbers of the tools that SPEC does not number itself. */
export const TOOL_TASKS = { convert: 1, subset: 2, pixelFont: 143 } as const;

/**
 * A tool job: the converter (task 1), the subset generator (2) and SPEC's workflow tasks (125
 * unidentified glyphs, 143 pixel font, 146 pixel preview). It is written `queued` with everything
 * needed to run it (`input`: the kind, its storage keys and options), claimed by a runner on any node
 * (queue.ts), which writes its state, progress and step here as it goes, so any request reads it.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    task: integer('task').notNull(),
    status: text('status').$type<JobStatus>().notNull().default('queued'),
    /** Percent done, 0–100. */
    progress: integer('progress').notNull().default(0),
    /** What the job is doing now, in Chinese, as the page shows it. */
    step: text('step').notNull().default(''),
    /** The current step cannot tell how far it is (one call into an encoder): the page shows motion, not a share. */
    stepIndeterminate: boolean('step_indeterminate').notNull().default(false),
    input: jsonb('input').$type<unknown>().notNull().default({}),
    result: jsonb('result').$type<unknown>(),
    error: text('error'),
    accountId: integer('account_id').references(() => accounts.id, { onDelete: 'set null' }),
    /** Who asked: 'account:<id>' or 'ip:<hash of the address>', for the per-client limits. */
    owner: text('owner').notNull().default(''),
    /** Bytes of the outputs kept in storage until the job expires (the per-client quota). */
    bytes: integer('bytes').notNull().default(0),
    /** How many times a runner has claimed the job; a job lost twice is failed, not queued again. */
    attempts: integer('attempts').notNull().default(0),
    /** Touched while a runner runs the job; a running job not touched for minutes lost its runner. */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
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
    index('jobs_owner_status_idx').on(t.owner, t.status),
  ],
);
