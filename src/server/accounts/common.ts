import { eq } from 'drizzle-orm';
import type { UserInfo } from '../../contract/accounts.ts';
import type { AuthContext } from '../auth/context.ts';
import type { LimitVerdict } from '../auth/shared-limiter.ts';
import type { Db } from '../db/client.ts';
import { accounts, type CodeChannel } from '../db/schema/index.ts';
import { ApiError, tooManyRequests } from '../http/envelope.ts';
import { storage } from '../storage/index.ts';

export type { UserInfo };

/** Who is calling, for rate limits and the session record. */
export interface RequestMeta {
  ip: string;
  userAgent?: string | undefined;
}

/** An account row. */
export type Account = typeof accounts.$inferSelect;

/** The public view of an account. */
export function toUserInfo(account: Account): UserInfo {
  return {
    id: account.id,
    nickname: account.nickname,
    avatar: account.avatarKey ? storage().url(account.avatarKey) : null,
    mobile: account.mobile,
    email: account.email,
    wechatBound: Boolean(account.wechatUnionid || account.wechatOpenid),
    wechatNickname: account.wechatNickname,
    hasPassword: Boolean(account.passwordHash),
    role: account.role,
    createdAt: account.createdAt.toISOString(),
  };
}

/** The account a mobile number or e-mail address belongs to, if any. */
export async function findAccountByTarget(db: Db, channel: CodeChannel, target: string): Promise<Account | undefined> {
  const column = channel === 'sms' ? accounts.mobile : accounts.email;
  const [row] = await db.select().from(accounts).where(eq(column, target)).limit(1);
  return row;
}

/** Throws 429 with Retry-After when a limiter says no. */
export function enforce(verdict: LimitVerdict, message = '操作太频繁，请稍后再试'): void {
  if (!verdict.allowed) throw tooManyRequests(verdict.retryAfter, message);
}

/** Refuses the action unless it carries a captcha verification passed moments ago (used up on the way). */
export async function requireCaptcha(ctx: AuthContext, verification: string | undefined, rounds = 1): Promise<void> {
  if (!(await ctx.captcha.consumeVerification(verification, rounds))) {
    throw new ApiError(400, '6110', '请先完成滑动验证（验证已失效时请重新验证）');
  }
}

/**
 * The puzzles a login for `accountKey` ('email:…', 'sms:…') calls for: an account that recent wrong
 * passwords point at takes two in a row (the login checks the verification's chain, so a puzzle
 * asked for without naming the account gains nothing).
 */
export async function accountRounds(ctx: AuthContext, accountKey: string): Promise<number> {
  return (await ctx.limits.loginFailures.count(accountKey)) >= HARDER_LOGIN_AFTER ? 2 : 1;
}

/** Wrong passwords for one account (from any address) after which its logins take two puzzles. */
export const HARDER_LOGIN_AFTER = 3;

/** The default nickname of a new account: '用户' and six random digits, until the user picks one. */
export function defaultNickname(): string {
  return `用户${String(Math.floor(Math.random() * 1_000_000)).padStart(6, '0')}`;
}

/** True when a database error is a unique violation (23505), looking through Drizzle's wrapping. */
export function isUniqueViolation(error: unknown): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    if ((current as { code?: unknown }).code === '23505') return true;
  }
  return false;
}
