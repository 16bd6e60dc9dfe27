import { asc, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { ContactReply, ContactThread } from '../../contract/messages.ts';
import { validateEmail } from '../../lib/validate.ts';
import { authContext } from '../auth/context.ts';
import type { SharedLimiter } from '../auth/shared-limiter.ts';
import { db as configuredDb, type Db } from '../db/client.ts';
import { accounts, messageBoard, messageBoardReplies } from '../db/schema/index.ts';
import { env } from '../env.ts';
import { addressKey } from '../http/address-key.ts';
import { badRequest, notFound, tooManyRequests } from '../http/envelope.ts';
import { log } from '../log.ts';
import { notify } from '../messages/notifications.ts';
import { iso, offsetOf, type Page, type PageRequest, toPage } from './paging.ts';

/** A message from the contact form, already validated for shape by the route. */
export interface BoardMessageInput {
  name: string;
  /** A mobile number or an e-mail address. */
  contact: string;
  content: string;
  /** The token a passed captcha check handed out (AJ-Captcha's captchaVerification). */
  captchaVerification?: string | undefined;
}

/** Who sent the message. */
export interface BoardMessageSender {
  ip: string | null;
  accountId: number | null;
}

/** What saving a message needs besides the database: the captcha and the per-IP limit. */
export interface BoardMessageGuards {
  /** Accepts a captcha verification once; undefined means no captcha service is configured. */
  consumeCaptcha: ((verification: string | undefined) => Promise<boolean>) | undefined;
  limiter: SharedLimiter;
}

/**
 * Saves a contact message. Refused, and nothing saved, when the sender's IP has left too many
 * messages lately (429) or when the captcha was not passed (400); the limit counts saved messages.
 */
export async function saveBoardMessage(
  input: BoardMessageInput,
  sender: BoardMessageSender,
  guards: BoardMessageGuards,
  database?: Db,
): Promise<{ id: number }> {
  // One writer per network: an IPv6 visitor's whole /64 shares the limit (http/address-key.ts).
  const key = addressKey(sender.ip ?? 'unknown');
  const verdict = await guards.limiter.check(key);
  if (!verdict.allowed) throw tooManyRequests(verdict.retryAfter, '留言太频繁了，请稍后再试');
  if (guards.consumeCaptcha && !(await guards.consumeCaptcha(input.captchaVerification))) {
    throw badRequest('请先完成滑块验证，验证有效期为 3 分钟');
  }
  const db = database ?? (await configuredDb());
  const [row] = await db
    .insert(messageBoard)
    .values({
      name: input.name,
      contact: input.contact,
      content: input.content,
      ip: sender.ip,
      accountId: sender.accountId,
    })
    .returning({ id: messageBoard.id });
  await guards.limiter.hit(key);
  if (!row) throw new Error('message_board insert returned no row');
  return row;
}

/** A contact-board message with its replies, as its writer and the editing area see it. */
export interface BoardThread extends ContactThread {
  accountId: number | null;
  handledAt: string | null;
}

/** One page of contact-board messages matching `where` (all when undefined), each with its replies. */
async function threadPage(
  db: Db,
  where: SQL | undefined,
  order: SQL[],
  request: PageRequest,
): Promise<Page<BoardThread>> {
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(messageBoard)
      .where(where)
      .orderBy(...order)
      .limit(request.size)
      .offset(offsetOf(request)),
    db.select({ n: count() }).from(messageBoard).where(where),
  ]);
  const replies = await repliesOf(
    db,
    rows.map((row) => row.id),
  );
  const threads = rows.map((row) => ({
    id: row.id,
    name: row.name,
    contact: row.contact,
    content: row.content,
    createdAt: row.createdAt.toISOString(),
    accountId: row.accountId,
    handledAt: iso(row.handledAt),
    replies: replies.get(row.id) ?? [],
  }));
  return toPage(threads, total?.n ?? 0, request);
}

async function repliesOf(db: Db, messageIds: number[]): Promise<Map<number, ContactReply[]>> {
  const found = new Map<number, ContactReply[]>();
  if (messageIds.length === 0) return found;
  const rows = await db
    .select({ reply: messageBoardReplies, nickname: accounts.nickname })
    .from(messageBoardReplies)
    .leftJoin(accounts, eq(accounts.id, messageBoardReplies.editorAccountId))
    .where(inArray(messageBoardReplies.messageId, messageIds))
    .orderBy(asc(messageBoardReplies.createdAt), asc(messageBoardReplies.id));
  for (const { reply, nickname } of rows) {
    const list = found.get(reply.messageId) ?? [];
    list.push({
      id: reply.id,
      body: reply.body,
      author: nickname || '造字联盟',
      createdAt: reply.createdAt.toISOString(),
    });
    found.set(reply.messageId, list);
  }
  return found;
}

/** The messages a signed-in user left on the contact board, newest first, each with its replies. */
export async function myBoardMessages(
  accountId: number,
  request: PageRequest,
  database?: Db,
): Promise<Page<BoardThread>> {
  const db = database ?? (await configuredDb());
  const order = [desc(messageBoard.createdAt), desc(messageBoard.id)];
  return threadPage(db, eq(messageBoard.accountId, accountId), order, request);
}

/** Every contact-board message for the editing area, unanswered first, newest first. */
export async function boardMessagesForEditors(request: PageRequest, database?: Db): Promise<Page<BoardThread>> {
  const db = database ?? (await configuredDb());
  const order = [sql`${messageBoard.handledAt} is not null`, desc(messageBoard.createdAt), desc(messageBoard.id)];
  return threadPage(db, undefined, order, request);
}

/**
 * An editor's reply to a contact-board message. The writer, when signed in as they wrote, gets it
 * as a 互动回复 message (and an e-mail copy if they asked for one); a visitor who left an e-mail
 * address gets it by e-mail. The message counts as handled.
 */
export async function replyToBoardMessage(
  editorAccountId: number,
  messageId: number,
  body: string,
  database?: Db,
): Promise<{ id: number }> {
  const db = database ?? (await configuredDb());
  const [message] = await db.select().from(messageBoard).where(eq(messageBoard.id, messageId)).limit(1);
  if (!message) throw notFound('留言不存在或已被删除');
  const [reply] = await db.transaction(async (tx) => {
    await tx.update(messageBoard).set({ handledAt: new Date() }).where(eq(messageBoard.id, messageId));
    return tx
      .insert(messageBoardReplies)
      .values({ messageId, editorAccountId, body })
      .returning({ id: messageBoardReplies.id });
  });
  if (!reply) throw new Error('message_board_replies insert returned no row');
  const excerpt = message.content.length > 30 ? `${message.content.slice(0, 30)}…` : message.content;
  if (message.accountId !== null) {
    await notify(
      [message.accountId],
      {
        type: 'reply',
        title: '你的留言有了回复',
        body: `你的留言“${excerpt}”：\n${body}`,
        link: `/user/contact#message-${messageId}`,
      },
      db,
    );
  } else if (validateEmail(message.contact) === null && message.contact.includes('@')) {
    const { SITE_TITLE } = env();
    authContext()
      .email.send({
        channel: 'email',
        to: message.contact.toLowerCase(),
        purpose: 'notice',
        subject: `${SITE_TITLE}回复了你的留言`,
        text: `${message.name}，你好：\n\n你在${SITE_TITLE}的留言“${excerpt}”有了回复：\n\n${body}\n`,
      })
      .catch((error: unknown) => log().warn({ err: error }, 'The e-mail reply to a contact message failed'));
  }
  return reply;
}
