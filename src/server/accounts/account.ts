import { eq } from 'drizzle-orm';
import type { AuthContext } from '../auth/context.ts';
import { composeCodeMessage } from '../auth/messages.ts';
import {
  assertMaySendCode,
  burnCodes,
  CODE_COOLDOWN_MS,
  CODE_TTL_MS,
  createCode,
  verifyCode,
} from '../auth/one-time-codes.ts';
import { checkNewPassword, hashPassword, needsRehash, verifyPassword } from '../auth/passwords.ts';
import { createSession, deleteSessionByToken, type IssuedSession, revokeSessions } from '../auth/sessions.ts';
import { db as configuredDb } from '../db/client.ts';
import { accounts, type CodeChannel, type CodePurpose } from '../db/schema/index.ts';
import { env } from '../env.ts';
import { addressKey } from '../http/address-key.ts';
import { ApiError, badRequest, tooManyRequests } from '../http/envelope.ts';
import { log } from '../log.ts';
import { welcome } from '../messages/notifications.ts';
import {
  accountRounds,
  defaultNickname,
  enforce,
  findAccountByTarget,
  isUniqueViolation,
  type RequestMeta,
  requireCaptcha,
} from './common.ts';

/** A mobile number or e-mail address with the channel that reaches it. */
export interface Address {
  channel: CodeChannel;
  target: string;
}

/** The one answer to a failed password login, whatever failed (no account enumeration, ASVS 6.3.8). */
export const LOGIN_FAILED_MESSAGE = '账号或密码错误';

function newSession(ctx: AuthContext, accountId: number, meta: RequestMeta): Promise<IssuedSession> {
  return configuredDb().then((db) =>
    createSession(db, accountId, {
      clock: ctx.clock,
      ttlSeconds: env().SESSION_TTL_SECONDS,
      userAgent: meta.userAgent,
      ip: meta.ip,
    }),
  );
}

function assertPasswordPolicy(password: string): void {
  const problem = checkNewPassword(password);
  if (problem) throw badRequest(`密码（password）：${problem}`);
}

/**
 * Sends a one-time code after a passed captcha. The answer is the same whether or not an account
 * exists for the address, so it reveals nothing; only the owner of the phone or mailbox learns more.
 * Cooldown and daily caps answer 429 before any provider is called.
 */
export async function sendCode(
  ctx: AuthContext,
  input: Address & { purpose: CodePurpose; captchaVerification?: string | undefined },
  meta: RequestMeta,
): Promise<{ cooldown: number }> {
  if (input.purpose === 'login' && input.channel !== 'sms') throw badRequest('验证码登录只支持手机号');
  enforce(await ctx.limits.sendCodeIp.hit(`ip:${addressKey(meta.ip)}`), '获取验证码太频繁，请稍后再试');
  // One request per address at a time on every node, so two quick clicks cannot both pass the cooldown check.
  const flightKey = `${input.channel}:${input.target}`;
  if (!(await ctx.limits.sendingCode.hit(flightKey)).allowed) {
    throw tooManyRequests(CODE_COOLDOWN_MS / 1000, '验证码正在发送，请稍候');
  }
  try {
    return await deliverCode(ctx, input, meta);
  } finally {
    await ctx.limits.sendingCode.reset(flightKey);
  }
}

async function deliverCode(
  ctx: AuthContext,
  input: Address & { purpose: CodePurpose; captchaVerification?: string | undefined },
  meta: RequestMeta,
): Promise<{ cooldown: number }> {
  const db = await configuredDb();
  const config = env();
  const where = { channel: input.channel, target: input.target, purpose: input.purpose };
  const limits = { perTarget: config.CODE_DAILY_LIMIT_PER_TARGET, perIp: config.CODE_DAILY_LIMIT_PER_IP };
  // Limits first, so a refused request does not use up the captcha the person just solved.
  // Codes are counted per network (addressKey): the row keeps the network, not the exact address.
  await assertMaySendCode(db, where, addressKey(meta.ip), limits, ctx.clock);
  await requireCaptcha(ctx, input.captchaVerification);
  const code = await createCode(db, where, addressKey(meta.ip), ctx.clock);
  const message = composeCodeMessage({
    channel: input.channel,
    to: input.target,
    purpose: input.purpose,
    code,
    siteTitle: config.SITE_TITLE,
    ttlMinutes: CODE_TTL_MS / 60_000,
  });
  const sender = input.channel === 'sms' ? ctx.sms : ctx.email;
  try {
    await sender.send(message);
  } catch (error) {
    await burnCodes(db, [input.target], [input.purpose], ctx.clock);
    log().error({ err: error, sender: sender.name, purpose: input.purpose }, 'Could not deliver a one-time code');
    throw new ApiError(502, '502', input.channel === 'sms' ? '短信发送失败，请稍后再试' : '邮件发送失败，请稍后再试');
  }
  return { cooldown: CODE_COOLDOWN_MS / 1000 };
}

/** Failed logins an account name may collect from all addresses before attempts are slowed. */
export const LOGIN_SLOWDOWN_AFTER = 5;

/**
 * The wait before a password is checked for an account with `failures` recent failures: none at
 * first, then 0.5 s doubling to at most 8 s. It slows a distributed guesser (each attempt also costs
 * a solved puzzle) without ever refusing the owner, who waits a few seconds at worst.
 */
export function loginDelayMs(failures: number): number {
  return failures < LOGIN_SLOWDOWN_AFTER ? 0 : Math.min(8_000, 500 * 2 ** (failures - LOGIN_SLOWDOWN_AFTER));
}

/**
 * Logs in with a mobile number or e-mail and a password, after a passed captcha. Unknown
 * accounts and wrong passwords get the same answer in the same time (a dummy hash is checked).
 * Failures lock nobody out (OWASP ASVS 5.0 V6.3.1; docs/accounts.md): an address that failed five
 * times for an account is refused for that account (429), an address that failed twenty times is
 * refused for every account, and an account that failed from many addresses is slowed, not locked,
 * so its owner still signs in from their own address; the code logins are never limited by these.
 */
export async function loginWithPassword(
  ctx: AuthContext,
  input: Address & { password: string; captchaVerification?: string | undefined },
  meta: RequestMeta,
): Promise<IssuedSession> {
  const accountKey = `${input.channel}:${input.target}`;
  const network = addressKey(meta.ip);
  const pairKey = `${accountKey}|${network}`;
  const ipKey = `ip:${network}`;
  const tooMany = '登录失败次数过多，请稍后再试，或用验证码登录';
  // Each attempt takes its place in both counters before the password is checked (one atomic
  // statement each), so parallel attempts cannot all pass a check before any of them is counted:
  // of twelve at once, five are checked. A place is given back when the attempt turns out not to
  // be one (the other limit refused it, or the captcha did) and when the password was right.
  enforce(await ctx.limits.loginPair.hit(pairKey), tooMany);
  const byIp = await ctx.limits.loginIp.hit(ipKey);
  if (!byIp.allowed) await ctx.limits.loginPair.release(pairKey);
  enforce(byIp, tooMany);
  try {
    await requireCaptcha(ctx, input.captchaVerification, await accountRounds(ctx, accountKey));
  } catch (error) {
    await ctx.limits.loginPair.release(pairKey);
    await ctx.limits.loginIp.release(ipKey);
    throw error;
  }
  const delay = loginDelayMs(await ctx.limits.loginFailures.count(accountKey));
  if (delay > 0) await ctx.pause(delay);
  const db = await configuredDb();
  const account = await findAccountByTarget(db, input.channel, input.target);
  const valid = await verifyPassword(account?.passwordHash, input.password);
  if (!account || !valid) {
    await ctx.limits.loginFailures.hit(accountKey);
    throw new ApiError(401, '401', LOGIN_FAILED_MESSAGE);
  }
  await ctx.limits.loginPair.reset(pairKey);
  await ctx.limits.loginIp.release(ipKey);
  await ctx.limits.loginFailures.reset(accountKey);
  if (account.disabledAt) throw new ApiError(403, '403', '该账户已停用，请联系管理员');
  if (account.passwordHash && needsRehash(account.passwordHash)) {
    // Hashes made with older, weaker parameters are upgraded while the password is at hand.
    await db
      .update(accounts)
      .set({ passwordHash: await hashPassword(input.password) })
      .where(eq(accounts.id, account.id));
  }
  return newSession(ctx, account.id, meta);
}

/** Logs in with a mobile number and the SMS code sent for login. */
export async function loginWithSmsCode(
  ctx: AuthContext,
  input: { mobile: string; code: string },
  meta: RequestMeta,
): Promise<IssuedSession> {
  const db = await configuredDb();
  await verifyCode(db, { channel: 'sms', target: input.mobile, purpose: 'login' }, input.code, {
    consume: true,
    clock: ctx.clock,
  });
  const account = await findAccountByTarget(db, 'sms', input.mobile);
  // Only the owner of the phone gets this far, so saying that there is no account reveals nothing.
  if (!account) throw badRequest('这个手机号还没有注册，请先注册');
  if (account.disabledAt) throw new ApiError(403, '403', '该账户已停用，请联系管理员');
  return newSession(ctx, account.id, meta);
}

/**
 * Registers with a mobile number or e-mail, a code sent for registration and a password, and
 * signs the new account in. Nothing is written unless every check passes.
 */
export async function register(
  ctx: AuthContext,
  input: Address & { code: string; password: string; nickname?: string | undefined },
  meta: RequestMeta,
): Promise<IssuedSession> {
  enforce(await ctx.limits.registerIp.hit(`ip:${addressKey(meta.ip)}`), '注册太频繁，请稍后再试');
  assertPasswordPolicy(input.password);
  const db = await configuredDb();
  const where = { channel: input.channel, target: input.target, purpose: 'register' as const };
  await verifyCode(db, where, input.code, { consume: false, clock: ctx.clock });
  const taken = input.channel === 'sms' ? '这个手机号已经注册，请直接登录' : '这个邮箱已经注册，请直接登录';
  if (await findAccountByTarget(db, input.channel, input.target)) throw badRequest(taken);
  const passwordHash = await hashPassword(input.password);
  await verifyCode(db, where, input.code, { consume: true, clock: ctx.clock });
  let id: number;
  try {
    const [created] = await db
      .insert(accounts)
      .values({
        ...(input.channel === 'sms' ? { mobile: input.target } : { email: input.target }),
        passwordHash,
        nickname: input.nickname || defaultNickname(),
        // The first editors of a new site register like anyone else (EDITOR_ACCOUNTS).
        role: env().EDITOR_ACCOUNTS.includes(input.target.toLowerCase()) ? 'editor' : 'user',
        createdAt: new Date(ctx.clock()),
        updatedAt: new Date(ctx.clock()),
      })
      .returning({ id: accounts.id });
    if (!created) throw new Error('Insert returned no row');
    id = created.id;
  } catch (error) {
    if (isUniqueViolation(error)) throw badRequest(taken);
    throw error;
  }
  await welcome(id, db);
  return newSession(ctx, id, meta);
}

/** Checks a password-reset code without using it up (the first step of the reset form). */
export async function verifyResetCode(ctx: AuthContext, input: Address & { code: string }): Promise<void> {
  await verifyCode(await configuredDb(), { ...input, purpose: 'reset' }, input.code, {
    consume: false,
    clock: ctx.clock,
  });
}

/**
 * Sets a new password with a reset code. Every session of the account ends, other reset codes
 * stop working, and the user signs in again with the new password (no automatic login).
 */
export async function resetPassword(
  ctx: AuthContext,
  input: Address & { code: string; password: string },
): Promise<void> {
  assertPasswordPolicy(input.password);
  const db = await configuredDb();
  const where = { channel: input.channel, target: input.target, purpose: 'reset' as const };
  await verifyCode(db, where, input.code, { consume: false, clock: ctx.clock });
  const account = await findAccountByTarget(db, input.channel, input.target);
  if (!account) throw badRequest('没有找到这个账户，请先注册');
  const passwordHash = await hashPassword(input.password);
  await verifyCode(db, where, input.code, { consume: true, clock: ctx.clock });
  await db
    .update(accounts)
    .set({ passwordHash, updatedAt: new Date(ctx.clock()) })
    .where(eq(accounts.id, account.id));
  await revokeSessions(db, account.id);
  await burnCodes(
    db,
    [account.mobile, account.email].filter((t): t is string => Boolean(t)),
    ['reset'],
    ctx.clock,
  );
}

/** Ends the session of a token (logout); an unknown token is fine. */
export async function logout(token: string): Promise<void> {
  if (token) await deleteSessionByToken(await configuredDb(), token);
}
