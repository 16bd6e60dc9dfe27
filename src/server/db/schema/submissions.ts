import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import type { SubmissionStatus } from '../../../contract/submissions.ts';
import { accounts } from './accounts.ts';

export { SUBMISSION_STATUSES, type SubmissionStatus } from '../../../contract/submissions.ts';

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

/**
 * A signed contributor agreement (签约). Each signature keeps the version signed, the SHA-256 of the
 * exact text, who signed it from where, and the PDF made at that moment, so the record shows what
 * was agreed even after the agreement changes. Signing a new version adds a row.
 */
export const agreementSignatures = pgTable(
  'agreement_signatures',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    version: text('version').notNull(),
    textSha256: text('text_sha256').notNull(),
    legalName: text('legal_name').notNull(),
    creditName: text('credit_name').notNull(),
    contact: text('contact').notNull(),
    address: text('address').notNull().default(''),
    // 'drawn' (a PNG the signer drew, in storage) or 'typed' (the legal name set in a brush font).
    signatureKind: text('signature_kind').$type<'drawn' | 'typed'>().notNull(),
    signatureKey: text('signature_key'),
    pdfKey: text('pdf_key').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    signedAt: timestamp('signed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('agreement_signatures_kind_check', sql`${t.signatureKind} in ('drawn', 'typed')`),
    index('agreement_signatures_account_signed_idx').on(t.accountId, t.signedAt),
  ],
);
