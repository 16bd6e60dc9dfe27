import { and, asc, count, desc, eq, isNull } from 'drizzle-orm';
import {
  familyKey,
  missingFields,
  SUBMISSION_STATUS_NAMES,
  type SubmissionDetail,
  type SubmissionEvent,
  type SubmissionFields,
  type SubmissionPage,
  type SubmissionStatus,
  type SubmissionSummary,
} from '../../contract/submissions.ts';
import { iso, offsetOf, type PageRequest, toPage } from '../content/paging.ts';
import { db as configuredDb, type Db } from '../db/client.ts';
import { accounts, submissionComments, submissionEvents, submissionFiles, submissions } from '../db/schema/index.ts';
import { notFound } from '../http/envelope.ts';
import { signingStatus } from '../signing/service.ts';
import type { Caller, Row } from './access.ts';
import { fileView } from './files.ts';
import { DELETABLE, EDITABLE, MOVES } from './lifecycle.ts';

// What the pages and the API read of submissions: one in a list, one whole (with what is missing
// and what the caller may do), the caller's own list, the latest draft, the timeline.

type FileRow = typeof submissionFiles.$inferSelect;

/** A submission in a list. */
export function summaryOf(row: Row): SubmissionSummary {
  return {
    uid: row.uid,
    fontName: row.fontName,
    nameEn: row.nameEn,
    status: row.status,
    statusName: SUBMISSION_STATUS_NAMES[row.status],
    round: row.round,
    designer: row.designer,
    updatedAt: row.updatedAt.toISOString(),
    submittedAt: iso(row.submittedAt),
    publishedGno: row.publishedGno,
  };
}

function fieldsOf(row: Row): SubmissionFields {
  return {
    fontName: row.fontName,
    nameEn: row.nameEn,
    category: row.category as SubmissionFields['category'],
    script: row.script as SubmissionFields['script'],
    designer: row.designer,
    description: row.description,
    license: row.license as SubmissionFields['license'],
    design: row.design ?? { origin: 'original', baseFont: '', method: 'digital', usage: 'both', notes: '' },
  };
}

async function nameOf(db: Db, accountId: number | null): Promise<string> {
  if (accountId === null) return '';
  const [row] = await db.select({ nickname: accounts.nickname }).from(accounts).where(eq(accounts.id, accountId));
  return row?.nickname ?? '';
}

/** The family name the submission's font bears, from its active font file. */
export function fontFamilyOf(files: ReadonlyArray<Pick<FileRow, 'kind' | 'report'>>): string | undefined {
  const font = files.find((file) => file.kind === 'font');
  return font?.report?.kind === 'font' ? font.report.faces[0]?.familyName : undefined;
}

/** What is still missing before a submission can go to review, in the designer's words. */
export function missingParts(row: Row, files: ReadonlyArray<Pick<FileRow, 'kind'>>): string[] {
  const missing = missingFields(row, row.design !== null);
  if (!files.some((file) => file.kind === 'font')) missing.push('字体文件');
  if (!files.some((file) => file.kind === 'image')) missing.push('至少一张展示图');
  return missing;
}

/**
 * What must be put right before a submission can go to review: the English name is the family
 * name in the font's name table (the library's address of the font is made from it).
 */
export function problemsOf(row: Row, files: ReadonlyArray<Pick<FileRow, 'kind' | 'report'>>): string[] {
  const family = fontFamilyOf(files);
  if (family === undefined || !row.nameEn) return [];
  if (familyKey(family) === '') {
    return [`字体文件里的家族名“${family}”没有英文，请在字体的 name 表中写入英文家族名后重新上传`];
  }
  if (familyKey(family) !== familyKey(row.nameEn)) {
    return [`英文名称“${row.nameEn}”与字体文件里的家族名“${family}”不一致，请改成一致`];
  }
  return [];
}

/** The whole of a submission as the caller sees it. */
export async function detailOf(caller: Caller, row: Row, database?: Db): Promise<SubmissionDetail> {
  const db = database ?? (await configuredDb());
  const [files, comments, signing, reviewer] = await Promise.all([
    db
      .select()
      .from(submissionFiles)
      .where(and(eq(submissionFiles.submissionId, row.id), isNull(submissionFiles.replacedAt)))
      .orderBy(asc(submissionFiles.id)),
    db
      .select({
        id: submissionComments.id,
        round: submissionComments.round,
        item: submissionComments.item,
        body: submissionComments.body,
        author: accounts.nickname,
        createdAt: submissionComments.createdAt,
      })
      .from(submissionComments)
      .leftJoin(accounts, eq(accounts.id, submissionComments.authorAccountId))
      .where(eq(submissionComments.submissionId, row.id))
      .orderBy(desc(submissionComments.round), asc(submissionComments.id)),
    signingStatus(row.accountId, db),
    nameOf(db, row.reviewerAccountId),
  ]);
  const mine = row.accountId === caller.accountId;
  const views = (kind: FileRow['kind']) =>
    files.filter((file) => file.kind === kind).map((file) => fileView(row.uid, file));
  return {
    ...summaryOf(row),
    fields: fieldsOf(row),
    fonts: views('font'),
    images: views('image'),
    finals: views('final'),
    comments: comments.map((c) => ({ ...c, author: c.author ?? '审核员', createdAt: c.createdAt.toISOString() })),
    reviewer: reviewer || null,
    missing: missingParts(row, files),
    problems: problemsOf(row, files),
    can: {
      edit: mine && EDITABLE.includes(row.status),
      submit: mine && row.status === 'draft',
      resubmit: mine && row.status === 'needs_revision',
      finalize: mine && row.status === 'approved',
      review: caller.reviewer && !mine && !['draft', 'published', 'rejected', 'withdrawn'].includes(row.status),
      delete: mine && DELETABLE.includes(row.status),
      withdraw: mine && MOVES.withdraw.from.includes(row.status),
    },
    signed: signing.signed && !signing.outdated,
  };
}

/** A page of the caller's own submissions, newest change first (queryContributeFontsByAccountIdPage). */
export async function listOwn(
  accountId: number,
  page: PageRequest,
  status?: SubmissionStatus,
  database?: Db,
): Promise<SubmissionPage> {
  const db = database ?? (await configuredDb());
  const where = and(eq(submissions.accountId, accountId), status ? eq(submissions.status, status) : undefined);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(submissions)
      .where(where)
      .orderBy(desc(submissions.updatedAt), desc(submissions.id))
      .limit(page.size)
      .offset(offsetOf(page)),
    db.select({ n: count() }).from(submissions).where(where),
  ]);
  return toPage(rows.map(summaryOf), total?.n ?? 0, page);
}

/** The caller's latest draft, to resume the submit form (queryUserLastContributeFont). */
export async function lastDraft(caller: Caller, database?: Db): Promise<SubmissionDetail | null> {
  const db = database ?? (await configuredDb());
  const [row] = await db
    .select()
    .from(submissions)
    .where(and(eq(submissions.accountId, caller.accountId), eq(submissions.status, 'draft')))
    .orderBy(desc(submissions.updatedAt))
    .limit(1);
  return row ? detailOf(caller, row, db) : null;
}

/** The timeline of a submission, oldest first (queryContributesProcessByUid). */
export async function timelineOf(row: Row, database?: Db): Promise<SubmissionEvent[]> {
  const db = database ?? (await configuredDb());
  const rows = await db
    .select({
      id: submissionEvents.id,
      action: submissionEvents.action,
      status: submissionEvents.status,
      note: submissionEvents.note,
      actorId: submissionEvents.actorAccountId,
      actor: accounts.nickname,
      createdAt: submissionEvents.createdAt,
    })
    .from(submissionEvents)
    .leftJoin(accounts, eq(accounts.id, submissionEvents.actorAccountId))
    .where(eq(submissionEvents.submissionId, row.id))
    .orderBy(asc(submissionEvents.createdAt), asc(submissionEvents.id));
  return rows.map((event) => {
    const action = event.action as SubmissionEvent['action'];
    const byReviewer = action !== 'create' && MOVES[action].by === 'reviewer';
    return {
      id: event.id,
      action,
      status: event.status,
      note: event.note,
      actor: byReviewer ? `审核员 ${event.actor ?? ''}`.trim() : (event.actor ?? '设计师'),
      byReviewer,
      createdAt: event.createdAt.toISOString(),
    };
  });
}

/** The file of a kind a submission holds now (its font, its final files), not one it replaced. */
export async function activeFile(db: Db, row: Row, kind: 'font' | 'final'): Promise<FileRow | undefined> {
  const [file] = await db
    .select()
    .from(submissionFiles)
    .where(
      and(eq(submissionFiles.submissionId, row.id), eq(submissionFiles.kind, kind), isNull(submissionFiles.replacedAt)),
    );
  return file;
}

/** A stored file row of a submission the caller may see. */
export async function fileOf(row: Row, fileId: number, database?: Db): Promise<FileRow> {
  const db = database ?? (await configuredDb());
  const [file] = await db
    .select()
    .from(submissionFiles)
    .where(and(eq(submissionFiles.id, fileId), eq(submissionFiles.submissionId, row.id)));
  if (!file) throw notFound('文件不存在');
  return file;
}
