import { and, count, desc, eq, inArray, ne } from 'drizzle-orm';
import type { SubmissionDetail, SubmissionPage, SubmissionStatus } from '../../contract/submissions.ts';
import { offsetOf, type PageRequest, toPage } from '../content/paging.ts';
import { db as configuredDb, type Db } from '../db/client.ts';
import { submissionComments, submissions } from '../db/schema/index.ts';
import { badRequest, forbidden } from '../http/envelope.ts';
import { type Caller, findVisible } from './access.ts';
import { move } from './moves.ts';
import { detailOf, summaryOf } from './views.ts';

// The reviewers' side (the editor role): the queue, claiming, comments per item, and the
// decisions. Publishing an accepted submission is publish.ts.

/** A reviewer's comment on one item: 'general', 'field:<name>', 'font:<id>' or 'image:<id>'. */
export interface ItemComment {
  item: string;
  body: string;
}

/** The queue's tabs: what waits for a reviewer, and every stage by name. */
export type QueueFilter = 'open' | SubmissionStatus;
const OPEN: SubmissionStatus[] = ['submitted', 'resubmitted', 'reviewing', 'finalized'];

function requireReviewer(caller: Caller): void {
  if (!caller.reviewer) throw forbidden('只有审核员可以审核投稿');
}

/** A page of the review queue, longest waiting first for open work, newest first otherwise. */
export async function reviewQueue(
  caller: Caller,
  filter: QueueFilter,
  page: PageRequest,
  database?: Db,
): Promise<SubmissionPage & { counts: Partial<Record<SubmissionStatus, number>> }> {
  requireReviewer(caller);
  const db = database ?? (await configuredDb());
  const where =
    filter === 'open'
      ? inArray(submissions.status, OPEN)
      : and(eq(submissions.status, filter), ne(submissions.status, 'draft'));
  const [rows, [total], counts] = await Promise.all([
    db
      .select()
      .from(submissions)
      .where(where)
      .orderBy(filter === 'open' ? submissions.updatedAt : desc(submissions.updatedAt))
      .limit(page.size)
      .offset(offsetOf(page)),
    db.select({ n: count() }).from(submissions).where(where),
    db
      .select({ status: submissions.status, n: count() })
      .from(submissions)
      .where(ne(submissions.status, 'draft'))
      .groupBy(submissions.status),
  ]);
  return {
    ...toPage(rows.map(summaryOf), total?.n ?? 0, page),
    counts: Object.fromEntries(counts.map((c) => [c.status, c.n])),
  };
}

/** Takes a waiting submission into review; the reviewer's name is shown to the designer. */
export async function claimSubmission(caller: Caller, uid: string, database?: Db): Promise<SubmissionDetail> {
  requireReviewer(caller);
  const db = database ?? (await configuredDb());
  const row = await findVisible(caller, uid, db);
  const moved = await move(caller, row, 'claim', '', async () => ({ reviewerAccountId: caller.accountId }), db);
  return detailOf(caller, moved, db);
}

/** A decision on a submission in review, with the comments of this round on its items. */
export async function decide(
  caller: Caller,
  uid: string,
  action: 'request_changes' | 'accept' | 'reject',
  note: string,
  comments: ItemComment[],
  database?: Db,
): Promise<SubmissionDetail> {
  requireReviewer(caller);
  const db = database ?? (await configuredDb());
  const row = await findVisible(caller, uid, db);
  const items = comments.filter((comment) => comment.body.trim() !== '');
  if (action === 'request_changes' && items.length === 0 && note.trim().length < 2) {
    throw badRequest('退回修改时请至少写一条意见');
  }
  const summary =
    note.trim() || (action === 'request_changes' ? `共 ${items.length} 条修改意见，请查看投稿详情。` : '');
  const moved = await move(
    caller,
    row,
    action,
    summary,
    async (tx) => {
      if (items.length > 0) {
        await tx.insert(submissionComments).values(
          items.map((comment) => ({
            submissionId: row.id,
            round: row.round,
            item: comment.item,
            body: comment.body.trim(),
            authorAccountId: caller.accountId,
          })),
        );
      }
      return {};
    },
    db,
  );
  return detailOf(caller, moved, db);
}
