import { and, eq, inArray } from 'drizzle-orm';
import { SUBMISSION_STATUS_NAMES, type SubmissionDetail } from '../../contract/submissions.ts';
import { db as configuredDb, type Db } from '../db/client.ts';
import { submissions } from '../db/schema/index.ts';
import { ApiError } from '../http/envelope.ts';
import { log } from '../log.ts';
import { storage } from '../storage/index.ts';
import { type Caller, findOwn } from './access.ts';
import { DELETABLE } from './lifecycle.ts';
import { move } from './moves.ts';
import { detailOf } from './views.ts';

// A designer changing their mind. A draft, which nobody else has seen, is deleted with its files.
// A submission in review (or accepted, until it is published) is withdrawn, as the agreement (§二)
// allows: it stops, its reviewers are told, and its files and history stay for the record.

/** The folder every file of a submission lives under. */
export const submissionFolder = (uid: string) => `private/submissions/${uid}`;

/** Deletes a draft of the caller's, with its files (contribute/deleteContributeById). */
export async function deleteDraft(caller: Caller, uid: string, database?: Db): Promise<void> {
  const db = database ?? (await configuredDb());
  const row = await findOwn(caller, uid, db);
  const refused = () =>
    new ApiError(
      409,
      '409',
      `投稿当前为“${SUBMISSION_STATUS_NAMES[row.status]}”，只有草稿可以删除；已提交的投稿可以撤回`,
    );
  if (!DELETABLE.includes(row.status)) throw refused();
  // Only from a stage it may be deleted in: a submit at the same moment wins, and this answers 409.
  const deleted = await db
    .delete(submissions)
    .where(and(eq(submissions.id, row.id), inArray(submissions.status, [...DELETABLE])))
    .returning({ id: submissions.id });
  if (deleted.length === 0) throw refused();
  // Its rows went with it (events, files, comments cascade); then its files. A file left behind by a
  // storage failure is under a folder no row names, and is logged.
  await storage()
    .deleteTree(submissionFolder(row.uid))
    .catch((error: unknown) => log().error({ err: error, uid: row.uid }, 'files of a deleted draft not removed'));
}

/** Withdraws a submission of the caller's from review, before it is published (contribute/withdrawContributeById). */
export async function withdrawSubmission(
  caller: Caller,
  uid: string,
  note: string,
  database?: Db,
): Promise<SubmissionDetail> {
  const db = database ?? (await configuredDb());
  const row = await findOwn(caller, uid, db);
  if (DELETABLE.includes(row.status)) {
    throw new ApiError(409, '409', '草稿还没有提交，不需要撤回；不想要的草稿可以直接删除');
  }
  return detailOf(caller, await move(caller, row, 'withdraw', note, undefined, db), db);
}
