import { and, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import { NOTIFICATION_TYPE_NAMES, type NotificationType } from '../../contract/messages.ts';
import { authContext } from '../auth/context.ts';
import type { NoticeMessage } from '../auth/messages.ts';
import type { Db } from '../db/client.ts';
import { accounts } from '../db/schema/index.ts';
import { env } from '../env.ts';
import { log } from '../log.ts';

/** Who a message went to: some accounts, or everyone (an announcement). */
export type Recipients = { accountIds: readonly number[] } | { everyone: true };

interface CopyInput {
  type: NotificationType;
  title: string;
  body?: string | undefined;
  link?: string | null | undefined;
}

// Copies go out a few at a time so an announcement to thousands does not open thousands of
// connections to the mail server at once.
const PARALLEL_SENDS = 4;
const pending = new Set<Promise<void>>();

/** Writes the e-mail a user who asked for copies receives. */
export function composeNoticeMessage(to: string, input: CopyInput): NoticeMessage {
  const { SITE_TITLE, SITE_URL } = env();
  const link = input.link ? new URL(input.link, SITE_URL).toString() : new URL('/user/message', SITE_URL).toString();
  const text = [
    `【${NOTIFICATION_TYPE_NAMES[input.type]}】${input.title}`,
    '',
    input.body ?? '',
    '',
    `查看详情：${link}`,
    '',
    `你收到这封邮件，是因为你在${SITE_TITLE}的“消息通知”里打开了邮件提醒；在同一处可以关闭。`,
  ].join('\n');
  return { channel: 'email', to, purpose: 'notice', subject: `${SITE_TITLE}：${input.title}`, text };
}

async function deliver(db: Db, recipients: Recipients, input: CopyInput): Promise<void> {
  const optedIn = and(eq(accounts.notifyByEmail, true), isNotNull(accounts.email), isNull(accounts.disabledAt));
  const rows = await db
    .select({ email: accounts.email })
    .from(accounts)
    .where('everyone' in recipients ? optedIn : and(optedIn, inArray(accounts.id, [...recipients.accountIds])));
  const addresses = rows.map((row) => row.email).filter((email): email is string => Boolean(email));
  const sender = authContext().email;
  for (let i = 0; i < addresses.length; i += PARALLEL_SENDS) {
    const batch = addresses.slice(i, i + PARALLEL_SENDS);
    const results = await Promise.allSettled(batch.map((to) => sender.send(composeNoticeMessage(to, input))));
    const failed = results.filter((result) => result.status === 'rejected').length;
    if (failed > 0) log().warn({ failed, sender: sender.name }, 'Some e-mail copies of a message were not delivered');
  }
}

/**
 * Sends e-mail copies of a message to the recipients who asked for them, in the background; the
 * message itself is already stored, so a failed copy is logged, never an error of the request.
 */
export function sendEmailCopies(db: Db, recipients: Recipients, input: CopyInput): void {
  if ('accountIds' in recipients && recipients.accountIds.length === 0) return;
  const work = deliver(db, recipients, input)
    .catch((error: unknown) => log().warn({ err: error }, 'E-mail copies of a message failed'))
    .finally(() => pending.delete(work));
  pending.add(work);
}

/**
 * Sends one e-mail in the background, beside the stored message it accompanies (the contact
 * address of a custom-font request): a slow mail server never holds up the write, and a failure
 * is logged. emailCopiesSent() waits for it too.
 */
export function sendEmailInBackground(message: NoticeMessage): void {
  const sender = authContext().email;
  const work = sender
    .send(message)
    .catch((error: unknown) => log().warn({ err: error, sender: sender.name }, 'An e-mail was not delivered'))
    .finally(() => pending.delete(work));
  pending.add(work);
}

/** Waits for the copies on their way (tests, and shutdown). */
export async function emailCopiesSent(): Promise<void> {
  while (pending.size > 0) await Promise.all(pending);
}
