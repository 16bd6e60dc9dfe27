import { randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, gt, inArray } from 'drizzle-orm';
import {
  CUSTOM_FONT_ACTION_NAMES,
  CUSTOM_FONT_BUDGETS,
  CUSTOM_FONT_CHARSETS,
  CUSTOM_FONT_DAILY_LIMIT,
  CUSTOM_FONT_KINDS,
  CUSTOM_FONT_STAGE_NAMES,
  CUSTOM_FONT_STAGES,
  type CustomFontAction,
  type CustomFontDetail,
  type CustomFontPage,
  type CustomFontQueue,
  type CustomFontRequestInput,
  type CustomFontStage,
  type CustomFontSummary,
} from '../../contract/custom-fonts.ts';
import { canEdit } from '../accounts/editor-role.ts';
import { recordEditorAction } from '../audit/editor-log.ts';
import { offsetOf, type PageRequest, toPage } from '../content/paging.ts';
import { db as configuredDb, type Db } from '../db/client.ts';
import { accounts, customFontRequestEvents, customFontRequestFiles, customFontRequests } from '../db/schema/index.ts';
import { ApiError, badRequest, notFound, tooManyRequests } from '../http/envelope.ts';
import { discardAttachments, storeAttachments } from './attachments.ts';
import { MOVES, movesFrom, nextStage, StageConflict } from './lifecycle.ts';
import { noticeOf, tellRequester } from './notify.ts';

// Custom-font requests (字体定制): a signed-in client sends one with its attachments; editors move
// it through its stages; the client follows it in the user centre. A requester reaches only their
// own requests (anyone else's answers 404, as if it did not exist); editors reach every request.

type Row = typeof customFontRequests.$inferSelect;

/** Who asks: an account and whether it holds the editor role. */
export interface Caller {
  accountId: number;
  editor: boolean;
}

/** The caller of a request: the account and its role. */
export async function callerOf(accountId: number, database?: Db): Promise<Caller> {
  const db = database ?? (await configuredDb());
  const [row] = await db.select({ role: accounts.role }).from(accounts).where(eq(accounts.id, accountId));
  return { accountId, editor: canEdit(row?.role) };
}

const gone = () => notFound('定制需求不存在');

/** A request the caller may see: their own, or any for an editor. */
export async function findVisible(caller: Caller, uid: string, database?: Db): Promise<Row> {
  const db = database ?? (await configuredDb());
  if (!/^[0-9a-f-]{36}$/.test(uid)) throw gone();
  const [row] = await db.select().from(customFontRequests).where(eq(customFontRequests.uid, uid));
  if (!row || (row.accountId !== caller.accountId && !caller.editor)) throw gone();
  return row;
}

function summaryOf(row: Row): CustomFontSummary {
  return {
    uid: row.uid,
    organisation: row.organisation,
    kind: row.kind,
    kindName: CUSTOM_FONT_KINDS[row.kind],
    stage: row.stage,
    stageName: CUSTOM_FONT_STAGE_NAMES[row.stage],
    quote: row.quote,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The whole of a request as the caller sees it: editors also get the attachments' links and the moves. */
export async function detailOf(caller: Caller, row: Row, database?: Db): Promise<CustomFontDetail> {
  const db = database ?? (await configuredDb());
  const [files, events] = await Promise.all([
    db
      .select()
      .from(customFontRequestFiles)
      .where(eq(customFontRequestFiles.requestId, row.id))
      .orderBy(asc(customFontRequestFiles.id)),
    db
      .select({ event: customFontRequestEvents, actor: accounts.nickname })
      .from(customFontRequestEvents)
      .leftJoin(accounts, eq(accounts.id, customFontRequestEvents.actorAccountId))
      .where(eq(customFontRequestEvents.requestId, row.id))
      .orderBy(asc(customFontRequestEvents.createdAt), asc(customFontRequestEvents.id)),
  ]);
  return {
    ...summaryOf(row),
    contactName: row.contactName,
    phone: row.phone,
    email: row.email,
    charset: row.charset,
    charsetName: CUSTOM_FONT_CHARSETS[row.charset],
    customCount: row.customCount,
    weights: row.weights,
    deadline: row.deadline,
    budget: row.budget,
    budgetName: CUSTOM_FONT_BUDGETS[row.budget],
    description: row.description,
    files: files.map((file) => ({
      id: file.id,
      name: file.name,
      size: file.size,
      type: file.type,
      url: caller.editor ? `/web/api/dingzhi/attachment?uid=${row.uid}&file=${file.id}` : null,
    })),
    timeline: events.map(({ event, actor }) => {
      const action = event.action as CustomFontAction | 'create';
      return {
        id: event.id,
        action,
        actionName: CUSTOM_FONT_ACTION_NAMES[action],
        stage: event.stage,
        note: event.note,
        quote: event.quote,
        // The requester sees the alliance act, not which editor's account did.
        actor: action === 'create' ? row.contactName : caller.editor ? (actor ?? '编辑') : '造字联盟',
        createdAt: event.createdAt.toISOString(),
      };
    }),
    moves: caller.editor ? movesFrom(row.stage) : [],
  };
}

/**
 * A new request with its attachments. The attachments are checked and stored first, then the
 * request, its first timeline entry and its file rows are written in one transaction; a refusal
 * at any point leaves nothing behind. The requester is told it arrived.
 */
export async function createRequest(
  accountId: number,
  input: CustomFontRequestInput,
  database?: Db,
  now = new Date(),
): Promise<CustomFontDetail> {
  const db = database ?? (await configuredDb());
  const since = new Date(now.getTime() - 24 * 3600_000);
  const [sent] = await db
    .select({ n: count() })
    .from(customFontRequests)
    .where(and(eq(customFontRequests.accountId, accountId), gt(customFontRequests.createdAt, since)));
  if ((sent?.n ?? 0) >= CUSTOM_FONT_DAILY_LIMIT) {
    throw tooManyRequests(
      3600,
      `一个账号一天最多提交 ${CUSTOM_FONT_DAILY_LIMIT} 个定制需求。已提交的需求我们都会联系你，补充的资料可以在沟通时一并发送`,
    );
  }
  const folder = `${accountId}-${randomUUID()}`;
  const stored = await storeAttachments(accountId, folder, input.attachments);
  let row: Row;
  try {
    row = await db.transaction(async (tx) => {
      const [created] = await tx
        .insert(customFontRequests)
        .values({
          accountId,
          organisation: input.organisation,
          contactName: input.contactName,
          phone: input.phone,
          email: input.email,
          kind: input.kind,
          charset: input.charset,
          customCount: input.charset === 'custom' ? (input.customCount ?? null) : null,
          weights: input.weights,
          deadline: input.deadline,
          budget: input.budget,
          description: input.description,
        })
        .returning();
      if (!created) throw new Error('custom font request was not created');
      await tx
        .insert(customFontRequestEvents)
        .values({ requestId: created.id, action: 'create', stage: 'new', actorAccountId: accountId });
      if (stored.length > 0) {
        await tx.insert(customFontRequestFiles).values(stored.map((file) => ({ requestId: created.id, ...file })));
      }
      return created;
    });
  } catch (error) {
    await discardAttachments(stored);
    throw error;
  }
  await tellRequester(db, row, noticeOf(row, 'new', '', ''));
  return detailOf({ accountId, editor: false }, row, db);
}

/**
 * An editor's move of a request, in one transaction with its timeline entry and only from the
 * stage it was read in (and, when `seen` is given, the stage the editor's page showed): a
 * concurrent move makes this one answer 409. The requester is told; the editors' log records it.
 */
export async function moveRequest(
  caller: Caller,
  uid: string,
  move: { action: CustomFontAction; note: string; quote: string; seen?: CustomFontStage | undefined },
  database?: Db,
): Promise<CustomFontDetail> {
  const db = database ?? (await configuredDb());
  if (!caller.editor) throw new ApiError(403, '403', '只有编辑可以处理定制需求');
  const row = await findVisible(caller, uid, db);
  const raced = () => new ApiError(409, '409', '需求的状态刚刚被其他编辑改变，请刷新页面后再试');
  if (move.seen && move.seen !== row.stage) throw raced();
  let next: CustomFontStage;
  try {
    next = nextStage(move.action, row.stage);
  } catch (error) {
    if (error instanceof StageConflict) throw new ApiError(409, '409', error.message);
    throw error;
  }
  const note = move.note.trim();
  const quote = move.action === 'quote' ? move.quote.trim() : '';
  if (move.action === 'quote' && quote.length < 2) throw badRequest('报价时请填写金额或范围，例如“8 万–12 万元”');
  if (MOVES[move.action].needsNote && note.length < 2)
    throw badRequest('关闭需求时请写明原因（至少 2 个字），客户会看到');
  const moved = await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(customFontRequests)
      .set({ stage: next, updatedAt: new Date(), ...(quote ? { quote } : {}) })
      .where(and(eq(customFontRequests.id, row.id), eq(customFontRequests.stage, row.stage)))
      .returning();
    if (!updated) throw raced();
    await tx.insert(customFontRequestEvents).values({
      requestId: row.id,
      action: move.action,
      stage: next,
      note,
      quote,
      actorAccountId: caller.accountId,
    });
    return updated;
  });
  await recordEditorAction(
    {
      accountId: caller.accountId,
      action: `custom-font.${move.action}`,
      target: `custom-font:${row.uid}`,
      summary: quote ? `${row.organisation}：${quote}` : row.organisation,
    },
    db,
  );
  await tellRequester(db, moved, noticeOf(moved, next, note, quote));
  return detailOf(caller, moved, db);
}

/** A page of the caller's own requests, newest first. */
export async function listOwn(accountId: number, page: PageRequest, database?: Db): Promise<CustomFontPage> {
  const db = database ?? (await configuredDb());
  const where = eq(customFontRequests.accountId, accountId);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(customFontRequests)
      .where(where)
      .orderBy(desc(customFontRequests.createdAt), desc(customFontRequests.id))
      .limit(page.size)
      .offset(offsetOf(page)),
    db.select({ n: count() }).from(customFontRequests).where(where),
  ]);
  return toPage(rows.map(summaryOf), total?.n ?? 0, page);
}

/** The queue's tabs: the open stages together (longest waiting first), or one stage (newest first). */
export type QueueFilter = 'open' | CustomFontStage;
const OPEN_STAGES: CustomFontStage[] = ['new', 'contacted', 'quoted', 'in_progress'];

/** A page of the editors' queue with the count of every stage. */
export async function requestQueue(
  caller: Caller,
  filter: QueueFilter,
  page: PageRequest,
  database?: Db,
): Promise<CustomFontQueue> {
  if (!caller.editor) throw new ApiError(403, '403', '只有编辑可以查看定制需求');
  const db = database ?? (await configuredDb());
  const where =
    filter === 'open' ? inArray(customFontRequests.stage, OPEN_STAGES) : eq(customFontRequests.stage, filter);
  const [rows, [total], counted] = await Promise.all([
    db
      .select()
      .from(customFontRequests)
      .where(where)
      .orderBy(filter === 'open' ? asc(customFontRequests.updatedAt) : desc(customFontRequests.updatedAt))
      .limit(page.size)
      .offset(offsetOf(page)),
    db.select({ n: count() }).from(customFontRequests).where(where),
    db
      .select({ stage: customFontRequests.stage, n: count() })
      .from(customFontRequests)
      .groupBy(customFontRequests.stage),
  ]);
  const counts = Object.fromEntries(CUSTOM_FONT_STAGES.map((stage) => [stage, 0])) as Record<CustomFontStage, number>;
  for (const row of counted) counts[row.stage] = row.n;
  return { ...toPage(rows.map(summaryOf), total?.n ?? 0, page), counts };
}

/** A stored attachment of a request, for an editor's download. */
export async function attachmentOf(
  caller: Caller,
  uid: string,
  fileId: number,
  database?: Db,
): Promise<typeof customFontRequestFiles.$inferSelect> {
  if (!caller.editor) throw new ApiError(403, '403', '只有编辑可以下载定制需求的附件');
  const db = database ?? (await configuredDb());
  const row = await findVisible(caller, uid, db);
  const [file] = await db
    .select()
    .from(customFontRequestFiles)
    .where(and(eq(customFontRequestFiles.id, fileId), eq(customFontRequestFiles.requestId, row.id)));
  if (!file) throw notFound('附件不存在');
  return file;
}
