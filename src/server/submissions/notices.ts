import { and, inArray, isNull } from 'drizzle-orm';
import { SUBMISSION_STATUS_NAMES, type SubmissionAction, type SubmissionStatus } from '../../contract/submissions.ts';
import { EDITOR_ROLES } from '../accounts/editor-role.ts';
import type { Db } from '../db/client.ts';
import { accounts, type submissions } from '../db/schema/index.ts';
import { type NotificationInput, notify } from '../messages/notifications.ts';
import { signingStatus } from '../signing/service.ts';

// What the 审核进度 messages of a submission say: what happened, why, and what to do next, each
// linking to the submission. The designer hears of every reviewer's move; the reviewers hear of
// the designer's moves that change their work (a withdrawal, final files sent back to review).

type Row = typeof submissions.$inferSelect;

/** The designer's page of a submission; the reviewers' page of it. */
export const designerLink = (uid: string) => `/user/submission/${uid}`;
export const reviewerLink = (uid: string) => `/editor/submission/${uid}`;

/** The next step of the designer after a reviewer's move, or '' when there is none. */
async function nextStep(db: Db, row: Row, action: SubmissionAction): Promise<string> {
  switch (action) {
    case 'claim':
      return '审核结果会通过站内消息告诉你，请耐心等待。';
    case 'request_changes':
      return '下一步：打开投稿，按各项旁边的审核意见修改，然后重新提交。';
    case 'accept': {
      const signing = await signingStatus(row.accountId, db);
      const final =
        '在投稿页面上传终稿：终稿须是审核通过的这一版设计（同样的家族名和字重，字符不少于审核时），编辑随后上架。';
      return signing.signed && !signing.outdated
        ? `下一步：你已签署投稿协议，请${final}`
        : `下一步：先签署投稿协议（约两分钟），再${final}`;
    }
    case 'publish':
      return row.publishedGno ? `字体页面：/font/${row.publishedGno}` : '';
    default:
      return '';
  }
}

/** The message a designer gets after a reviewer moved their submission. */
async function designerNotice(
  db: Db,
  row: Row,
  action: SubmissionAction,
  next: SubmissionStatus,
  note: string,
): Promise<NotificationInput> {
  const step = await nextStep(db, row, action);
  const said = note.trim() || (step ? '' : `投稿进入“${SUBMISSION_STATUS_NAMES[next]}”阶段。`);
  return {
    type: 'review',
    title: `你的投稿《${row.fontName}》${SUBMISSION_STATUS_NAMES[next]}`,
    body: [said, step].filter(Boolean).join('\n\n'),
    link: designerLink(row.uid),
  };
}

/** The message the reviewers get after a designer's move that changes their work, if any. */
function reviewerNotice(row: Row, action: SubmissionAction, note: string): NotificationInput | null {
  if (action === 'withdraw') {
    return {
      type: 'review',
      title: `投稿《${row.fontName}》已被设计师撤回`,
      body: [note.trim() && `设计师的说明：${note.trim()}`, '这份投稿不再需要审核；它的文件和审核记录保留备查。']
        .filter(Boolean)
        .join('\n\n'),
      link: reviewerLink(row.uid),
    };
  }
  if (action === 'rereview') {
    return {
      type: 'review',
      title: `投稿《${row.fontName}》的终稿有改动，重新送审`,
      body: `${note.trim()}\n\n下一步：在审核队列中开始审核，改动后的文件已是这份投稿的字体文件。`,
      link: reviewerLink(row.uid),
    };
  }
  return null;
}

/** The reviewers of a submission: the one who claimed it, else every account that reviews. */
async function reviewersOf(db: Db, row: Row): Promise<number[]> {
  if (row.reviewerAccountId !== null) return [row.reviewerAccountId];
  const editors = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(inArray(accounts.role, [...EDITOR_ROLES]), isNull(accounts.disabledAt)));
  return editors.map((editor) => editor.id).filter((id) => id !== row.accountId);
}

/** Tells whoever must hear of a move: the designer after a reviewer's, the reviewers after some of the designer's. */
export async function tellOfMove(
  db: Db,
  row: Row,
  action: SubmissionAction,
  next: SubmissionStatus,
  note: string,
  byReviewer: boolean,
): Promise<void> {
  if (byReviewer) {
    await notify([row.accountId], await designerNotice(db, row, action, next, note), db);
    return;
  }
  const notice = reviewerNotice(row, action, note);
  if (notice) await notify(await reviewersOf(db, row), notice, db);
}
