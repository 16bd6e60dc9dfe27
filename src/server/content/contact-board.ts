import type { RateLimiter } from '../auth/rate-limit.ts';
import { db as configuredDb, type Db } from '../db/client.ts';
import { messageBoard } from '../db/schema/index.ts';
import { badRequest, tooManyRequests } from '../http/envelope.ts';

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
  consumeCaptcha: ((verification: string | undefined) => boolean) | undefined;
  limiter: RateLimiter;
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
  const key = sender.ip ?? 'unknown';
  const verdict = guards.limiter.check(key);
  if (!verdict.allowed) throw tooManyRequests(verdict.retryAfter, '留言太频繁了，请稍后再试');
  if (guards.consumeCaptcha && !guards.consumeCaptcha(input.captchaVerification)) {
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
  guards.limiter.hit(key);
  if (!row) throw new Error('message_board insert returned no row');
  return row;
}
