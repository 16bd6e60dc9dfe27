import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import type { DesignModel, SubmissionStatus } from '../../../contract/submissions.ts';
import { accounts } from './accounts.ts';

export { SUBMISSION_STATUSES, type SubmissionStatus } from '../../../contract/submissions.ts';

/** One face of a stored font file, with the stored files made from it (the face's own font and its specimen). */
export interface StoredFace {
  familyName: string;
  /** The family's Chinese name in the font's name table, when it has one (absent from older rows). */
  familyNameZh?: string | null;
  styleName: string;
  fullName: string;
  postscriptName: string;
  weight: number;
  italic: boolean;
  glyphCount: number;
  unitsPerEm: number;
  version: string;
  copyright: string | null;
  format: 'ttf' | 'otf';
  coverage: { gb2312: number; tongyong: number; big5: number; latin: number };
  /** The face alone, unpacked from a zip or a WOFF2 (private). */
  faceKey: string;
  faceSize: number;
  sha256: string;
  /** The specimen picture (private). */
  specimenKey: string;
}

/** What the server found in a submission file. */
export type StoredFileReport =
  | { kind: 'font'; faces: StoredFace[]; licenseText: string | null }
  | { kind: 'image'; width: number; height: number };

/**
 * A font a designer contributes for review; `uid` is the public id the contribute calls take. The
 * information fields are columns; files, comments and the timeline are rows of their own tables.
 */
export const submissions = pgTable(
  'submissions',
  {
    id: serial('id').primaryKey(),
    uid: text('uid').notNull().unique().default(sql`gen_random_uuid()::text`),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    fontName: text('font_name').notNull(),
    nameEn: text('name_en').notNull().default(''),
    category: text('category').notNull().default(''),
    script: text('script').notNull().default(''),
    designer: text('designer').notNull().default(''),
    description: text('description').notNull().default(''),
    license: text('license').notNull().default(''),
    // The design model of the upload form: how the font was made (contract DesignModel).
    design: jsonb('design').$type<DesignModel>(),
    status: text('status').$type<SubmissionStatus>().notNull().default('draft'),
    // 1 for the first review, one more for every resubmission: comments belong to a round.
    round: integer('round').notNull().default(0),
    reviewerAccountId: integer('reviewer_account_id').references(() => accounts.id, { onDelete: 'set null' }),
    // The library family it became (font_families.gno), once published.
    publishedGno: text('published_gno'),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      'submissions_status_check',
      sql`${t.status} in ('draft', 'submitted', 'reviewing', 'needs_revision', 'resubmitted', 'approved', 'finalized', 'published', 'rejected', 'withdrawn')`,
    ),
    index('submissions_account_updated_idx').on(t.accountId, t.updatedAt),
    index('submissions_status_updated_idx').on(t.status, t.updatedAt),
  ],
);

/** One move of a submission's process (queryContributesProcessByUid): who made it, when, why. */
export const submissionEvents = pgTable(
  'submission_events',
  {
    id: serial('id').primaryKey(),
    submissionId: integer('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    action: text('action').notNull().default('create'),
    status: text('status').$type<SubmissionStatus>().notNull(),
    note: text('note').notNull().default(''),
    actorAccountId: integer('actor_account_id').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('submission_events_submission_created_idx').on(t.submissionId, t.createdAt)],
);

/**
 * Every file uploaded for a submission: kind 'font' (a font or the faces of a zip, checked),
 * 'image' (a specimen), 'final' (the files to publish, uploadContributeUltimatelyFont). A
 * replaced file keeps its row with `replacedAt` set, so re-uploads do not erase history.
 */
export const submissionFiles = pgTable(
  'submission_files',
  {
    id: serial('id').primaryKey(),
    submissionId: integer('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'font' | 'image' | 'final'>().notNull(),
    // The file as uploaded (a font, a zip or an image), under private/submissions/.
    fileKey: text('file_key').notNull(),
    name: text('name').notNull().default(''),
    size: integer('size').notNull().default(0),
    // What the server found: the faces of a font file, the size of an image (contract views).
    report: jsonb('report').$type<StoredFileReport>(),
    replacedAt: timestamp('replaced_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('submission_files_submission_kind_idx').on(t.submissionId, t.kind)],
);

/** A reviewer's comment on one item of a submission (a field, a file, or the whole) in a round. */
export const submissionComments = pgTable(
  'submission_comments',
  {
    id: serial('id').primaryKey(),
    submissionId: integer('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    round: integer('round').notNull(),
    item: text('item').notNull(),
    body: text('body').notNull(),
    authorAccountId: integer('author_account_id').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('submission_comments_submission_idx').on(t.submissionId, t.round)],
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
