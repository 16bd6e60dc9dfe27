import { and, asc, count, desc, eq, inArray, isNull } from 'drizzle-orm';
import {
  SUBMISSION_MAX_IMAGES,
  SUBMISSION_STATUS_NAMES,
  type SubmissionAction,
  type SubmissionDetail,
  type SubmissionEvent,
  type SubmissionFields,
  type SubmissionPage,
  type SubmissionStatus,
  type SubmissionSummary,
} from '../../contract/submissions.ts';
import { canEdit } from '../accounts/editor-role.ts';
import { recordEditorAction } from '../audit/editor-log.ts';
import { iso, offsetOf, type PageRequest, toPage } from '../content/paging.ts';
import { db as configuredDb, type Db } from '../db/client.ts';
import { accounts, submissionComments, submissionEvents, submissionFiles, submissions } from '../db/schema/index.ts';
import { ApiError, badRequest, notFound } from '../http/envelope.ts';
import { notify } from '../messages/notifications.ts';
import { signingStatus } from '../signing/service.ts';
import { storage } from '../storage/index.ts';
import { ownUpload } from '../storage/uploads.ts';
import { type CheckedFile, checkUpload, fileView } from './files.ts';
import { type Actor, EDITABLE, IllegalMove, MOVES, nextStatus } from './lifecycle.ts';

// A designer's side of submissions: drafts saved step by step, files attached after their checks,
// submitting and resubmitting, the final files, and what the pages read. Every read and write is
// scoped to the caller: a designer reaches only their own submissions (anyone else's answers 404,
// as if it did not exist); reviewers (the editor role) reach every submission but a draft.

type Row = typeof submissions.$inferSelect;
type FileRow = typeof submissionFiles.$inferSelect;

/** An uploaded file to attach: the key getSTSToken gave and the designer's own file name. */
export interface UploadRef {
  key: string;
  name: string;
}

/** What saveSubmission and updateContributeById take. */
export interface SubmissionChanges {
  fields?: { [K in keyof SubmissionFields]?: SubmissionFields[K] | undefined } | undefined;
  font?: UploadRef | undefined;
  images?: UploadRef[] | undefined;
  /** Files (images) to take away, by id. */
  dropFiles?: number[] | undefined;
}

/** Who asks: an account and whether it may review. */
export interface Caller {
  accountId: number;
  reviewer: boolean;
}

/** The caller of a request: the account and its role. */
export async function callerOf(accountId: number, database?: Db): Promise<Caller> {
  const db = database ?? (await configuredDb());
  const [row] = await db.select({ role: accounts.role }).from(accounts).where(eq(accounts.id, accountId));
  return { accountId, reviewer: canEdit(row?.role) };
}

const gone = () => notFound('投稿不存在');

/** A submission the caller may see: their own, or any submitted one for a reviewer. */
export async function findVisible(caller: Caller, uid: string, database?: Db): Promise<Row> {
  const db = database ?? (await configuredDb());
  if (!/^[0-9a-f-]{36}$/.test(uid)) throw gone();
  const [row] = await db.select().from(submissions).where(eq(submissions.uid, uid));
  if (!row) throw gone();
  if (row.accountId === caller.accountId) return row;
  if (caller.reviewer && row.status !== 'draft') return row;
  throw gone();
}

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
    can: {
      edit: mine && EDITABLE.includes(row.status),
      submit: mine && row.status === 'draft',
      resubmit: mine && row.status === 'needs_revision',
      finalize: mine && row.status === 'approved',
      review: caller.reviewer && !mine && !['draft', 'published', 'rejected'].includes(row.status),
    },
    signed: signing.signed && !signing.outdated,
  };
}

/**
 * Moves a submission one stage on, in one transaction with its timeline entry, and only from the
 * stage it was read in (a concurrent move makes this one answer 409). The designer is told.
 */
export async function move(
  caller: Caller,
  row: Row,
  action: SubmissionAction,
  note: string,
  extra: (tx: Db, next: SubmissionStatus) => Promise<Partial<typeof submissions.$inferInsert>> = async () => ({}),
  database?: Db,
): Promise<Row> {
  const db = database ?? (await configuredDb());
  // The designer of a submission moves as its designer; a reviewer never reviews their own font.
  const actor: Actor = row.accountId === caller.accountId ? 'designer' : 'reviewer';
  if (actor === 'reviewer' && !caller.reviewer) throw gone();
  let next: SubmissionStatus;
  try {
    next = nextStatus(action, row.status, actor);
  } catch (error) {
    if (error instanceof IllegalMove) throw new ApiError(error.status, String(error.status), error.message);
    throw error;
  }
  if (MOVES[action].needsNote && note.trim().length < 2) throw badRequest('请写明原因（至少 2 个字），设计师会看到');
  const updated = await db.transaction(async (tx) => {
    const values = { status: next, updatedAt: new Date(), ...(await extra(tx as unknown as Db, next)) };
    const [moved] = await tx
      .update(submissions)
      .set(values)
      .where(and(eq(submissions.id, row.id), eq(submissions.status, row.status)))
      .returning();
    if (!moved) throw new ApiError(409, '409', '投稿的状态刚刚被其他人改变，请刷新页面后再试');
    await tx.insert(submissionEvents).values({
      submissionId: row.id,
      action,
      status: next,
      note: note.trim(),
      actorAccountId: caller.accountId,
    });
    return moved;
  });
  if (actor === 'reviewer') {
    await recordEditorAction({
      accountId: caller.accountId,
      action: `submission.${action}`,
      target: `submission:${row.uid}`,
      summary: row.fontName,
    });
    await notify([row.accountId], {
      type: 'review',
      title: `你的投稿《${row.fontName}》${SUBMISSION_STATUS_NAMES[next]}`,
      body: note.trim() || `投稿进入“${SUBMISSION_STATUS_NAMES[next]}”阶段。`,
      link: `/user/submission/${row.uid}`,
    });
  }
  return updated;
}

async function writeFiles(db: Db, row: Row, checked: CheckedFile[]): Promise<void> {
  if (checked.length === 0) return;
  await db.transaction(async (tx) => {
    const kinds = [...new Set(checked.map((file) => file.kind))].filter((kind) => kind !== 'image');
    // A new font (or set of final files) replaces the previous one; images are added.
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
async function checkAll(
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
    await Promise.all(checked.map((file) => storage().deleteTree(file.folder)));
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

async function applyChanges(caller: Caller, row: Row, changes: SubmissionChanges, db: Db): Promise<Row> {
  if (!EDITABLE.includes(row.status)) {
    throw new ApiError(409, '409', `投稿当前为“${SUBMISSION_STATUS_NAMES[row.status]}”，不能修改`);
  }
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
    await Promise.all(checked.map((file) => storage().deleteTree(file.folder)));
    throw error;
  }
  const set: Partial<typeof submissions.$inferInsert> = { updatedAt: new Date() };
  const fields = changes.fields ?? {};
  for (const key of ['fontName', 'nameEn', 'category', 'script', 'designer', 'description', 'license'] as const) {
    if (fields[key] !== undefined) set[key] = fields[key];
  }
  if (fields.design) set.design = fields.design;
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

/**
 * saveSubmission: a new draft (no uid) or more of an existing one. The name is the only field a
 * new draft needs; the rest may come step by step. Files are checked before anything is written.
 */
export async function saveDraft(
  caller: Caller,
  uid: string | undefined,
  changes: SubmissionChanges,
  database?: Db,
): Promise<SubmissionDetail> {
  const db = database ?? (await configuredDb());
  let row: Row;
  if (uid) {
    row = await findVisible(caller, uid, db);
    if (row.accountId !== caller.accountId) throw gone();
  } else {
    const fontName = changes.fields?.fontName?.trim();
    if (!fontName) throw badRequest('请先填写字体名称');
    const [open] = await db
      .select({ n: count() })
      .from(submissions)
      .where(and(eq(submissions.accountId, caller.accountId), eq(submissions.status, 'draft')));
    if ((open?.n ?? 0) >= 5) throw badRequest('你已有 5 份草稿，请先提交或删除草稿后再新建');
    row = await db.transaction(async (tx) => {
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
  return detailOf(caller, await applyChanges(caller, row, changes, db), db);
}

/** updateContributeById: changes to a submission sent back for revision (or a draft). */
export async function reviseSubmission(
  caller: Caller,
  uid: string,
  changes: SubmissionChanges,
  database?: Db,
): Promise<SubmissionDetail> {
  const db = database ?? (await configuredDb());
  const row = await findVisible(caller, uid, db);
  if (row.accountId !== caller.accountId) throw gone();
  return detailOf(caller, await applyChanges(caller, row, changes, db), db);
}

/** What is still missing before a submission can go to review, in the designer's words. */
function missingParts(row: Row, files: ReadonlyArray<{ kind: FileRow['kind'] }>): string[] {
  const missing: string[] = [];
  if (!row.nameEn) missing.push('英文名称');
  if (!row.category) missing.push('风格分类');
  if (!row.script) missing.push('适用文字');
  if (!row.designer) missing.push('设计师署名');
  if (row.description.length < 20) missing.push('字体介绍（至少 20 个字）');
  if (!row.license) missing.push('授权方式');
  if (!row.design) missing.push('设计说明');
  if (!files.some((file) => file.kind === 'font')) missing.push('字体文件');
  if (!files.some((file) => file.kind === 'image')) missing.push('至少一张展示图');
  return missing;
}

/** submit: a complete draft goes to review, or a revised submission goes back to its reviewer. */
export async function submitSubmission(
  caller: Caller,
  uid: string,
  note: string,
  database?: Db,
): Promise<SubmissionDetail> {
  const db = database ?? (await configuredDb());
  const row = await findVisible(caller, uid, db);
  if (row.accountId !== caller.accountId) throw gone();
  const files = await db
    .select({ kind: submissionFiles.kind })
    .from(submissionFiles)
    .where(and(eq(submissionFiles.submissionId, row.id), isNull(submissionFiles.replacedAt)));
  const missing = missingParts(row, files);
  if (missing.length > 0) throw badRequest(`还缺少：${missing.join('、')}`);
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

/**
 * uploadContributeUltimatelyFont: the final files of an accepted submission, once the designer has
 * signed the current agreement; they must be the same family as the reviewed font.
 */
export async function uploadFinal(
  caller: Caller,
  uid: string,
  ref: UploadRef,
  database?: Db,
): Promise<SubmissionDetail> {
  const db = database ?? (await configuredDb());
  const row = await findVisible(caller, uid, db);
  if (row.accountId !== caller.accountId) throw gone();
  if (row.status !== 'approved') {
    throw new ApiError(409, '409', `投稿当前为“${SUBMISSION_STATUS_NAMES[row.status]}”，审核通过后才能上传终稿`);
  }
  const signing = await signingStatus(caller.accountId, db);
  if (!signing.signed || signing.outdated) {
    throw new ApiError(403, '403', '请先签署最新版本的设计师协议，再上传终稿');
  }
  const [checked] = await checkAll(caller.accountId, row, [{ kind: 'final', ref }]);
  if (!checked) throw badRequest('请上传终稿文件');
  try {
    await writeFiles(db, row, [checked]);
    const moved = await move(caller, row, 'finalize', '', undefined, db);
    return detailOf(caller, moved, db);
  } catch (error) {
    await db.delete(submissionFiles).where(eq(submissionFiles.fileKey, checked.fileKey));
    await storage().deleteTree(checked.folder);
    throw error;
  }
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
