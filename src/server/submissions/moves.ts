import { and, eq } from 'drizzle-orm';
import type { SubmissionAction, SubmissionStatus } from '../../contract/submissions.ts';
import { recordEditorAction } from '../audit/editor-log.ts';
import { db as configuredDb, type Db } from '../db/client.ts';
import { submissionEvents, submissions } from '../db/schema/index.ts';
import { ApiError, badRequest } from '../http/envelope.ts';
import { type Caller, gone, type Row } from './access.ts';
import { type Actor, IllegalMove, MOVES, nextStatus } from './lifecycle.ts';
import { tellOfMove } from './notices.ts';

/**
 * Moves a submission one stage on, in one transaction with its timeline entry, and only from the
 * stage it was read in (a concurrent move makes this one answer 409). `extra` writes what else the
 * move changes in the same transaction. Then whoever must hear of it is told (notices.ts).
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
  }
  await tellOfMove(db, updated, action, next, note, actor === 'reviewer');
  return updated;
}
