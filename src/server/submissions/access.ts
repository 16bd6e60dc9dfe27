import { eq } from 'drizzle-orm';
import { canEdit } from '../accounts/editor-role.ts';
import { db as configuredDb, type Db } from '../db/client.ts';
import { accounts, submissions } from '../db/schema/index.ts';
import { notFound } from '../http/envelope.ts';

// Who may reach a submission: a designer reaches only their own (anyone else's answers 404, as if
// it did not exist); reviewers (the editor role) reach every submission but a draft.

export type Row = typeof submissions.$inferSelect;

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

/** The answer for a submission the caller may not see: the same as for one that does not exist. */
export const gone = () => notFound('投稿不存在');

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

/** A submission of the caller's own (someone else's answers 404, a reviewer's too). */
export async function findOwn(caller: Caller, uid: string, database?: Db): Promise<Row> {
  const row = await findVisible(caller, uid, database);
  if (row.accountId !== caller.accountId) throw gone();
  return row;
}
