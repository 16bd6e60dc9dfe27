import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { AuthContext } from '../auth/context.ts';
import { burnCodes, verifyCode } from '../auth/one-time-codes.ts';
import { checkNewPassword, hashPassword, verifyPassword } from '../auth/passwords.ts';
import { revokeSessions } from '../auth/sessions.ts';
import { db as configuredDb } from '../db/client.ts';
import { accounts } from '../db/schema/index.ts';
import { ApiError, badRequest } from '../http/envelope.ts';
import { log } from '../log.ts';
import { storage } from '../storage/index.ts';
import type { Address } from './account.ts';
import { processAvatar } from './avatar.ts';
import { type Account, enforce, findAccountByTarget, isUniqueViolation, toUserInfo, type UserInfo } from './common.ts';

/** The ways into an account that can be unbound. */
export type BindingType = 'mobile' | 'email' | 'wechat';

/** The current state of an account, read fresh from the database. */
export async function loadUserInfo(accountId: number): Promise<UserInfo> {
  const db = await configuredDb();
  const [row] = await db.select().from(accounts).where(eq(accounts.id, accountId)).limit(1);
  if (!row) throw new ApiError(401, '401', '登录状态已失效，请重新登录');
  return toUserInfo(row);
}

/**
 * Asks for the current password before a sensitive change (ASVS 7.5.1). Accounts without a
 * password (made through WeChat) skip it. Wrong answers count like failed logins; the answer is
 * 400, not 401, because the session itself is fine.
 */
async function reauthenticate(ctx: AuthContext, account: Account, password: string | undefined): Promise<void> {
  if (!account.passwordHash) return;
  const key = `account:${account.id}`;
  enforce(await ctx.limits.loginAccount.check(key), '密码错误次数过多，请稍后再试');
  if (!password) throw badRequest('请输入当前密码');
  if (!(await verifyPassword(account.passwordHash, password))) {
    await ctx.limits.loginAccount.hit(key);
    throw badRequest('当前密码不正确');
  }
}

function addresses(account: Pick<Account, 'mobile' | 'email'>): string[] {
  return [account.mobile, account.email].filter((value): value is string => Boolean(value));
}

/**
 * Changes the password of the signed-in account (the old one is required when there is one).
 * Every other session ends and pending reset codes stop working; this session stays.
 */
export async function changePassword(
  ctx: AuthContext,
  account: Account,
  sessionId: string,
  input: { oldPassword?: string | undefined; password: string },
): Promise<void> {
  const problem = checkNewPassword(input.password);
  if (problem) throw badRequest(`新密码（password）：${problem}`);
  await reauthenticate(ctx, account, input.oldPassword);
  const db = await configuredDb();
  await db
    .update(accounts)
    .set({ passwordHash: await hashPassword(input.password), updatedAt: new Date(ctx.clock()) })
    .where(eq(accounts.id, account.id));
  await revokeSessions(db, account.id, sessionId);
  await burnCodes(db, addresses(account), ['reset'], ctx.clock);
}

/**
 * Binds a new mobile number or e-mail address (or replaces the current one) with a code sent to
 * it for binding, after the current password. Reset codes of the old and new address stop working.
 */
export async function bindAddress(
  ctx: AuthContext,
  account: Account,
  input: Address & { code: string; password?: string | undefined },
): Promise<UserInfo> {
  const column = input.channel === 'sms' ? 'mobile' : 'email';
  const noun = input.channel === 'sms' ? '手机号' : '邮箱';
  if (account[column] === input.target) throw badRequest(`这个${noun}已经绑定在你的账户上`);
  await reauthenticate(ctx, account, input.password);
  const db = await configuredDb();
  const where = { channel: input.channel, target: input.target, purpose: 'bind' as const };
  await verifyCode(db, where, input.code, { consume: false, clock: ctx.clock });
  const owner = await findAccountByTarget(db, input.channel, input.target);
  if (owner) throw badRequest(`这个${noun}已绑定其他账户`);
  await verifyCode(db, where, input.code, { consume: true, clock: ctx.clock });
  try {
    await db
      .update(accounts)
      .set({ [column]: input.target, updatedAt: new Date(ctx.clock()) })
      .where(eq(accounts.id, account.id));
  } catch (error) {
    if (isUniqueViolation(error)) throw badRequest(`这个${noun}已绑定其他账户`);
    throw error;
  }
  await burnCodes(db, [...addresses(account), input.target], ['reset'], ctx.clock);
  return loadUserInfo(account.id);
}

/**
 * Removes a mobile number, e-mail address or WeChat from the account, as long as a way in is
 * left: a mobile number (SMS login), an e-mail address with a password, or WeChat.
 */
export async function unbind(
  ctx: AuthContext,
  account: Account,
  input: { type: BindingType; password?: string | undefined },
): Promise<UserInfo> {
  const hasWechat = Boolean(account.wechatUnionid || account.wechatOpenid);
  const isBound = input.type === 'wechat' ? hasWechat : Boolean(account[input.type]);
  if (!isBound) throw badRequest('这项没有绑定，无需解绑');
  const left = {
    mobile: input.type !== 'mobile' && Boolean(account.mobile),
    email: input.type !== 'email' && Boolean(account.email),
    wechat: input.type !== 'wechat' && hasWechat,
  };
  if (!(left.mobile || (left.email && account.passwordHash) || left.wechat)) {
    throw badRequest('解绑后将无法登录这个账户，请先绑定其他登录方式');
  }
  await reauthenticate(ctx, account, input.password);
  const db = await configuredDb();
  const change =
    input.type === 'wechat'
      ? { wechatUnionid: null, wechatOpenid: null, wechatNickname: null }
      : { [input.type]: null };
  await db
    .update(accounts)
    .set({ ...change, updatedAt: new Date(ctx.clock()) })
    .where(eq(accounts.id, account.id));
  return loadUserInfo(account.id);
}

/** Characters a nickname may not contain: control characters and angle brackets. */
const NICKNAME_FORBIDDEN = /[\p{Cc}<>]/u;

/**
 * Updates the nickname and/or the avatar. The avatar is checked and re-encoded before anything is
 * written; the old avatar file is removed once the new one is in place.
 */
export async function updateProfile(
  ctx: AuthContext,
  account: Account,
  input: { nickname?: string | undefined; avatar?: Uint8Array | undefined },
): Promise<UserInfo> {
  const nickname = input.nickname?.trim();
  if (nickname !== undefined) {
    if (!nickname || [...nickname].length > 20) throw badRequest('昵称（nickname）：请填写 1 到 20 个字符');
    if (NICKNAME_FORBIDDEN.test(nickname)) throw badRequest('昵称（nickname）：不能包含控制字符或尖括号');
  }
  const avatar = input.avatar ? await processAvatar(input.avatar) : undefined;
  if (nickname === undefined && !avatar) throw badRequest('没有需要更新的内容');
  let avatarKey: string | undefined;
  if (avatar) {
    avatarKey = `avatars/${account.id}-${randomBytes(6).toString('hex')}.webp`;
    await storage().put(avatarKey, avatar);
  }
  const db = await configuredDb();
  await db
    .update(accounts)
    .set({
      ...(nickname !== undefined ? { nickname } : {}),
      ...(avatarKey ? { avatarKey } : {}),
      updatedAt: new Date(ctx.clock()),
    })
    .where(eq(accounts.id, account.id));
  if (avatarKey && account.avatarKey) {
    await storage()
      .delete(account.avatarKey)
      .catch((error: unknown) => log().warn({ err: error }, 'Could not remove an old avatar'));
  }
  return loadUserInfo(account.id);
}
