import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';

/** The stages of a font submission (tougao, "contribution"), from draft to published. */
export const SUBMISSION_STATUSES = [
  'draft',
  'submitted',
  'reviewing',
  'needs_revision',
  'approved',
  'rejected',
  'published',
] as const;
/** One stage of a font submission. */
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

/** A font a user contributes for review; `uid` is the public id the contribute calls take. */
export const submissions = pgTable(
  'submissions',
  {
    id: serial('id').primaryKey(),
    uid: text('uid').notNull().unique().default(sql`gen_random_uuid()::text`),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    fontName: text('font_name').notNull(),
    designer: text('designer').notNull().default(''),
    description: text('description').notNull().default(''),
    license: text('license').notNull().default(''),
    status: text('status').$type<SubmissionStatus>().notNull().default('draft'),
    fileKey: text('file_key'),
    imageKeys: jsonb('image_keys').$type<string[]>().notNull().default([]),
    // The "model" field of the upload form: how the font was made (e.g. handwritten, designed).
    model: text('model'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      'submissions_status_check',
      sql`${t.status} in ('draft', 'submitted', 'reviewing', 'needs_revision', 'approved', 'rejected', 'published')`,
    ),
    index('submissions_account_updated_idx').on(t.accountId, t.updatedAt),
    index('submissions_status_updated_idx').on(t.status, t.updatedAt),
  ],
);

/** One step of a submission's process (queryContributesProcessByUid): the status it moved to and why. */
export const submissionEvents = pgTable(
  'submission_events',
  {
    id: serial('id').primaryKey(),
    submissionId: integer('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    status: text('status').$type<SubmissionStatus>().notNull(),
    note: text('note').notNull().default(''),
    actorAccountId: integer('actor_account_id').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('submission_events_submission_created_idx').on(t.submissionId, t.createdAt)],
);

/**
 * Every file uploaded for a submission, kept so re-uploads do not erase history; kind 'ultimate'
 * marks the final font files (uploadContributeUltimatelyFont).
 */
export const submissionFiles = pgTable(
  'submission_files',
  {
    id: serial('id').primaryKey(),
    submissionId: integer('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    fileKey: text('file_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('submission_files_submission_kind_idx').on(t.submissionId, t.kind)],
);
