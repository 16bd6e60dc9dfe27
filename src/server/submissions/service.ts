import { and, count, eq, inArray, isNull } from 'drizzle-orm';
import {
  type DesignModel,
  fieldsProblem,
  NAME_EN_PATTERN,
  type PlainField,
  SUBMISSION_FIELD_RULES,
  SUBMISSION_MAX_IMAGES,
  SUBMISSION_STATUS_NAMES,
  type SubmissionDetail,
} from '../../contract/submissions.ts';
import { db as configuredDb, type Db } from '../db/client.ts';
import { submissionEvents, submissionFiles, submissions } from '../db/schema/index.ts';
import { ApiError, badRequest } from '../http/envelope.ts';
import { storage } from '../storage/index.ts';
import { ownUpload } from '../storage/uploads.ts';
import { type Caller, findOwn, type Row } from './access.ts';
import { type CheckedFile, checkUpload } from './files.ts';
import { EDITABLE } from './lifecycle.ts';
import { move } from './moves.ts';
import { detailOf, missingParts, problemsOf } from './views.ts';

// A designer's drafts: saved step by step, files attached after their checks, submitted and
// resubmitted. The reads are views.ts, the final files final.ts, deleting and withdrawing
// withdraw.ts. Every write is scoped to the caller's own submissions.

/** An uploaded file to attach: the key getSTSToken gave and the designer's own file name. */
export interface UploadRef {
  key: string;
  name: string;
}

/** What saveSubmission and updateContributeById take; a blank field clears it (a draft may be incomplete). */
export interface SubmissionChanges {
  fields?: ({ [K in PlainField]?: string | undefined } & { design?: DesignModel | undefined }) | undefined;
  font?: UploadRef | undefined;
  images?: UploadRef[] | undefined;
  /** Files (images) to take away, by id. */
  dropFiles?: number[] | undefined;
}

/** Writes checked files as rows; a new font (or set of final files) replaces the previous one, images are added. */
export async function writeFiles(db: Db, row: Row, checked: CheckedFile[]): Promise<void> {
  if (checked.length === 0) return;
  await db.transaction(async (tx) => {
    const kinds = [...new Set(checked.map((file) => file.kind))].filter((kind) => kind !== 'image');
    if (kinds.length > 0) {
      await tx
        .update(submissionFiles)
        .set({ replacedAt: new Date() })
        .where(
          and(
            eq(submissionFiles.submissionId, row.id),
            inArray(submissionFiles.kind, kinds),
            isNull(submissionFiles.replacedAt),
          ),
        );
    }
    await tx.insert(submissionFiles).values(
      checked.map((file) => ({
        submissionId: row.id,
        kind: file.kind,
        fileKey: file.fileKey,
        name: file.name.slice(0, 200),
        size: file.size,
        report: file.report,
      })),
    );
    await tx.update(submissions).set({ updatedAt: new Date() }).where(eq(submissions.id, row.id));
  });
}

/** Checks every named upload before anything is written; on any refusal nothing stays behind. */
export async function checkAll(
  accountId: number,
  row: Row,
  items: Array<{ kind: CheckedFile['kind']; ref: UploadRef }>,
): Promise<CheckedFile[]> {
  const checked: CheckedFile[] = [];
  try {
    for (const { kind, ref } of items) {
      checked.push(await checkUpload(row.uid, kind, ownUpload(accountId, ref.key), ref.name));
    }
    return checked;
  } catch (error) {
    await discard(checked);
    await Promise.all(
      items.map(({ ref }) =>
        storage()
          .delete(ref.key)
          .catch(() => undefined),
      ),
    );
    throw error;
  }
}

/** Removes checked files that will not be kept. */
export async function discard(checked: readonly CheckedFile[]): Promise<void> {
  await Promise.all(checked.map((file) => storage().deleteTree(file.folder)));
}

/** The Latin family name of a checked font, when it can be the English name as it stands. */
function latinFamilyOf(checked: readonly CheckedFile[]): string | undefined {
  const font = checked.find((file) => file.kind === 'font');
  const family = font?.report.kind === 'font' ? font.report.faces[0]?.familyName : undefined;
  return family && NAME_EN_PATTERN.test(family) ? family : undefined;
}

async function applyChanges(caller: Caller, row: Row, changes: SubmissionChanges, db: Db): Promise<Row> {
  if (!EDITABLE.includes(row.status)) {
    throw new ApiError(409, '409', `投稿当前为“${SUBMISSION_STATUS_NAMES[row.status]}”，不能修改`);
  }
  const fields = changes.fields ?? {};
  // The routes check the same rules; this holds for every caller of the service.
  const problem = fieldsProblem(fields);
  if (problem) throw badRequest(problem);
  const active = await db
    .select({ id: submissionFiles.id, kind: submissionFiles.kind })
    .from(submissionFiles)
    .where(and(eq(submissionFiles.submissionId, row.id), isNull(submissionFiles.replacedAt)));
  const drop = (changes.dropFiles ?? []).filter((id) => active.some((file) => file.id === id && file.kind === 'image'));
  const images = active.filter((file) => file.kind === 'image').length - drop.length + (changes.images?.length ?? 0);
  if (images > SUBMISSION_MAX_IMAGES) throw badRequest(`展示图最多 ${SUBMISSION_MAX_IMAGES} 张，请先删除不需要的图片`);
  const checked = await checkAll(caller.accountId, row, [
    ...(changes.font ? [{ kind: 'font' as const, ref: changes.font }] : []),
    ...(changes.images ?? []).map((ref) => ({ kind: 'image' as const, ref })),
  ]);
  try {
    await writeFiles(db, row, checked);
  } catch (error) {
    await discard(checked);
    throw error;
  }
  const set: Partial<typeof submissions.$inferInsert> = { updatedAt: new Date() };
  for (const key of Object.keys(SUBMISSION_FIELD_RULES) as PlainField[]) {
    const value = fields[key];
    if (value !== undefined) set[key] = value.trim();
  }
  if (fields.design) set.design = fields.design;
  // A font named in Latin gives the English name when the designer has not written one: it must be the same.
  const family = latinFamilyOf(checked);
  if (family && !row.nameEn && fields.nameEn === undefined) set.nameEn = family;
  await db.transaction(async (tx) => {
    if (drop.length > 0) {
      await tx
        .update(submissionFiles)
        .set({ replacedAt: new Date() })
        .where(and(eq(submissionFiles.submissionId, row.id), inArray(submissionFiles.id, drop)));
    }
    await tx.update(submissions).set(set).where(eq(submissions.id, row.id));
  });
  const [fresh] = await db.select().from(submissions).where(eq(submissions.id, row.id));
  return fresh as Row;
}

/** Most drafts an account keeps at once. */
export const MAX_DRAFTS = 5;

/**
 * saveSubmission: a new draft (no uid) or more of an existing one. The Chinese name is the only
 * field a new draft needs; the rest may come step by step. Files are checked before anything is written.
 */
export async function saveDraft(
  caller: Caller,
  uid: string | undefined,
  changes: SubmissionChanges,
  database?: Db,
): Promise<SubmissionDetail> {
  const db = database ?? (await configuredDb());
  if (uid) return detailOf(caller, await applyChanges(caller, await findOwn(caller, uid, db), changes, db), db);
  const fontName = changes.fields?.fontName?.trim();
  if (!fontName) throw badRequest(`${SUBMISSION_FIELD_RULES.fontName.label}：不能为空`);
  const [open] = await db
    .select({ n: count() })
    .from(submissions)
    .where(and(eq(submissions.accountId, caller.accountId), eq(submissions.status, 'draft')));
  if ((open?.n ?? 0) >= MAX_DRAFTS) {
    throw badRequest(`你已有 ${MAX_DRAFTS} 份草稿，请先提交或删除草稿后再新建（在“我的投稿”的草稿里可以删除）`);
  }
  let row = await db.transaction(async (tx) => {
    const [created] = await tx.insert(submissions).values({ accountId: caller.accountId, fontName }).returning();
    if (!created) throw new Error('submission was not created');
    await tx.insert(submissionEvents).values({
      submissionId: created.id,
      action: 'create',
      status: 'draft',
      actorAccountId: caller.accountId,
    });
    return created;
  });
  try {
    row = await applyChanges(caller, row, changes, db);
  } catch (error) {
    // A first save whose files were refused leaves no half-made draft behind.
    await db.delete(submissions).where(eq(submissions.id, row.id));
    throw error;
  }
  return detailOf(caller, row, db);
}

/** updateContributeById: changes to a submission sent back for revision (or a draft). */
export async function reviseSubmission(
  caller: Caller,
  uid: string,
  changes: SubmissionChanges,
  database?: Db,
): Promise<SubmissionDetail> {
  const db = database ?? (await configuredDb());
  const row = await findOwn(caller, uid, db);
  return detailOf(caller, await applyChanges(caller, row, changes, db), db);
}

/** submit: a complete draft goes to review, or a revised submission goes back to its reviewer. */
export async function submitSubmission(
  caller: Caller,
  uid: string,
  note: string,
  database?: Db,
): Promise<SubmissionDetail> {
  const db = database ?? (await configuredDb());
  const row = await findOwn(caller, uid, db);
  const files = await db
    .select({ kind: submissionFiles.kind, report: submissionFiles.report })
    .from(submissionFiles)
    .where(and(eq(submissionFiles.submissionId, row.id), isNull(submissionFiles.replacedAt)));
  const missing = missingParts(row, files);
  if (missing.length > 0) throw badRequest(`还缺少：${missing.join('、')}`);
  const problems = problemsOf(row, files);
  if (problems.length > 0) throw badRequest(problems.join('；'));
  const action = row.status === 'needs_revision' ? 'resubmit' : 'submit';
  const moved = await move(
    caller,
    row,
    action,
    note,
    async () => ({ round: row.round + 1, submittedAt: new Date() }),
    db,
  );
  return detailOf(caller, moved, db);
}
