import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import {
  NOTIFICATION_TYPE_NAMES,
  NOTIFICATION_TYPES,
  type NotificationItem,
  type NotificationSummary,
  type NotificationType,
} from '../../contract/messages.ts';
import { iso, offsetOf, type Page, type PageRequest, toPage } from '../content/paging.ts';
import { db as configuredDb, type Db } from '../db/client.ts';
import { accounts, notifications } from '../db/schema/index.ts';
import { notFound } from '../http/envelope.ts';
import { sendEmailCopies } from './email-copies.ts';

/** What a message says; `link` is a path on this site. */
export interface NotificationInput {
  type: NotificationType;
  title: string;
  body?: string;
  link?: string | null;
}

type Row = typeof notifications.$inferSelect;

function toItem(row: Row): NotificationItem {
  return {
    id: row.id,
    type: row.type,
    typeName: NOTIFICATION_TYPE_NAMES[row.type],
    title: row.title,
    body: row.body,
    link: row.link,
    createdAt: row.createdAt.toISOString(),
    readAt: iso(row.readAt),
  };
}

/**
 * Sends a message to some accounts: one row each, then an e-mail copy to those who asked for one
 * (in the background: a slow mail server never holds up the write that caused the message). The
 * submission review and the contact board's replies send their messages through here.
 */
export async function notify(accountIds: readonly number[], input: NotificationInput, database?: Db): Promise<number> {
  if (accountIds.length === 0) return 0;
  const db = database ?? (await configuredDb());
  const rows = await db
    .insert(notifications)
    .values(
      [...new Set(accountIds)].map((accountId) => ({
        accountId,
        type: input.type,
        title: input.title,
        body: input.body ?? '',
        link: input.link ?? null,
      })),
    )
    .returning({ accountId: notifications.accountId });
  sendEmailCopies(db, { accountIds: rows.map((row) => row.accountId) }, input);
  return rows.length;
}

/**
 * An announcement (站内公告) to every active account, written in one statement; accounts made
 * later do not receive it. Answers how many accounts it reached.
 */
export async function announce(input: Omit<NotificationInput, 'type'>, database?: Db): Promise<{ recipients: number }> {
  const db = database ?? (await configuredDb());
  // One statement, however many accounts; drizzle's insert-select wants every column, id included.
  const result = (await db.execute(sql`
    insert into ${notifications} (account_id, type, title, body, link)
    select ${accounts.id}, 'announcement', ${input.title}, ${input.body ?? ''}, ${input.link ?? null}
    from ${accounts} where ${accounts.disabledAt} is null`)) as unknown as {
    affectedRows?: number;
    rowCount?: number | null;
  };
  sendEmailCopies(db, { everyone: true }, { ...input, type: 'announcement' });
  return { recipients: Number(result.rowCount ?? result.affectedRows ?? 0) };
}

/** One page of a user's messages, newest first, of one type or of all. */
export async function listNotifications(
  accountId: number,
  request: PageRequest & { type?: NotificationType | undefined; unread?: boolean | undefined },
  database?: Db,
): Promise<Page<NotificationItem>> {
  const db = database ?? (await configuredDb());
  const where = and(
    eq(notifications.accountId, accountId),
    request.type ? eq(notifications.type, request.type) : undefined,
    request.unread ? isNull(notifications.readAt) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(notifications)
      .where(where)
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(request.size)
      .offset(offsetOf(request)),
    db.select({ n: count() }).from(notifications).where(where),
  ]);
  return toPage(rows.map(toItem), total?.n ?? 0, request);
}

/** The unread counts by type and the newest unread messages (the header badge). */
export async function notificationSummary(accountId: number, database?: Db): Promise<NotificationSummary> {
  const db = database ?? (await configuredDb());
  const unread = and(eq(notifications.accountId, accountId), isNull(notifications.readAt));
  const [counts, latest, [account]] = await Promise.all([
    db.select({ type: notifications.type, n: count() }).from(notifications).where(unread).groupBy(notifications.type),
    db
      .select()
      .from(notifications)
      .where(unread)
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(5),
    db
      .select({ email: accounts.email, notifyByEmail: accounts.notifyByEmail })
      .from(accounts)
      .where(eq(accounts.id, accountId)),
  ]);
  const byType = Object.fromEntries(NOTIFICATION_TYPES.map((type) => [type, 0])) as Record<NotificationType, number>;
  for (const row of counts) byType[row.type] = row.n;
  return {
    unread: counts.reduce((sum, row) => sum + row.n, 0),
    byType,
    latest: latest.map(toItem),
    emailCopies: Boolean(account?.notifyByEmail && account.email),
    hasEmail: Boolean(account?.email),
  };
}

/** One of the user's messages, marked read; 404 for a message that is not theirs. */
export async function readNotification(accountId: number, id: number, database?: Db): Promise<NotificationItem> {
  const db = database ?? (await configuredDb());
  const mine = and(eq(notifications.id, id), eq(notifications.accountId, accountId));
  // Only the first reading sets the time; reading again keeps it.
  const [updated] = await db
    .update(notifications)
    .set({ readAt: sql`coalesce(${notifications.readAt}, now())` })
    .where(mine)
    .returning();
  if (!updated) throw notFound('消息不存在或已被删除');
  return toItem(updated);
}

/** Marks every unread message of the user (of one type, if given) read; answers how many. */
export async function markAllRead(
  accountId: number,
  type: NotificationType | undefined,
  database?: Db,
): Promise<number> {
  const db = database ?? (await configuredDb());
  const rows = await db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(
      and(
        eq(notifications.accountId, accountId),
        isNull(notifications.readAt),
        type ? eq(notifications.type, type) : undefined,
      ),
    )
    .returning({ id: notifications.id });
  return rows.length;
}

/** Turns e-mail copies on or off; on needs an e-mail address bound to the account. */
export async function setEmailCopies(accountId: number, on: boolean, database?: Db): Promise<boolean> {
  const db = database ?? (await configuredDb());
  const [account] = await db.select({ email: accounts.email }).from(accounts).where(eq(accounts.id, accountId));
  if (on && !account?.email) return false;
  await db.update(accounts).set({ notifyByEmail: on }).where(eq(accounts.id, accountId));
  return true;
}

/** The first message of a new account: where things are. */
export async function welcome(accountId: number, database?: Db): Promise<void> {
  await notify(
    [accountId],
    {
      type: 'system',
      title: '欢迎加入造字联盟',
      body: '收藏喜欢的字体、把几款字体放在一起对比、下载字体文件，都可以从个人中心开始。设计师可以先阅读投稿须知，再提交自己的作品；审核进度会通过消息通知你。',
      link: '/user/overview',
    },
    database,
  );
}
