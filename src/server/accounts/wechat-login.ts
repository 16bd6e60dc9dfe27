import { randomBytes } from 'node:crypto';
import { eq, lt } from 'drizzle-orm';
import type { AuthContext } from '../auth/context.ts';
import type { IssuedSession } from '../auth/sessions.ts';
import { createSession } from '../auth/sessions.ts';
import { safeEqual, sha256Hex } from '../auth/tokens.ts';
import { fetchWechatUser, qrConnectUrl, type WechatConfig, type WechatUser } from '../auth/wechat.ts';
import { db as configuredDb, type Db } from '../db/client.ts';
import { accounts, type WechatStateMode, wechatStates } from '../db/schema/index.ts';
import { env } from '../env.ts';
import { ApiError, badRequest } from '../http/envelope.ts';
import { welcome } from '../messages/notifications.ts';
import { type Account, isUniqueViolation, type RequestMeta } from './common.ts';

/** How long a WeChat authorisation may take, from the QR page to the callback. */
export const WECHAT_STATE_TTL_MS = 10 * 60_000;
/** Where WeChat sends the visitor back: the /account/wechat page finishes the login. */
export const WECHAT_CALLBACK_PATH = '/account/wechat';

/** The answer to a missing, foreign, expired or reused state. */
export const STATE_INVALID_MESSAGE = '微信登录请求已失效，请回到登录窗口重新扫码';

/** The WeChat settings, or undefined when WeChat login is not set up. */
export function wechatConfig(): WechatConfig | undefined {
  const config = env();
  if (!config.WECHAT_APP_ID || !config.WECHAT_APP_SECRET) return undefined;
  return {
    appId: config.WECHAT_APP_ID,
    appSecret: config.WECHAT_APP_SECRET,
    openUrl: config.WECHAT_OPEN_URL,
    apiUrl: config.WECHAT_API_URL,
  };
}

function requireConfig(): WechatConfig {
  const config = wechatConfig();
  // 400 rather than 503: the client shows the server's own words for 400, and these say what to do.
  if (!config) throw badRequest('本站尚未开通微信登录，请使用手机号或邮箱登录');
  return config;
}

/**
 * Starts a WeChat authorisation: a random state (kept hashed on the server and whole in the
 * browser's cookie) and the QR page address to send the visitor to.
 */
export async function startWechatAuthorization(
  ctx: AuthContext,
  input: { mode: WechatStateMode; redirect: string; accountId?: number | undefined },
): Promise<{ url: string; state: string }> {
  const config = requireConfig();
  const state = randomBytes(24).toString('base64url');
  const now = ctx.clock();
  const db = await configuredDb();
  // Abandoned authorisations are cleared as new ones start.
  await db.delete(wechatStates).where(lt(wechatStates.expiresAt, new Date(now)));
  await db.insert(wechatStates).values({
    id: sha256Hex(state),
    mode: input.mode,
    accountId: input.accountId ?? null,
    redirect: input.redirect,
    createdAt: new Date(now),
    expiresAt: new Date(now + WECHAT_STATE_TTL_MS),
  });
  const redirectUri = new URL(WECHAT_CALLBACK_PATH, env().SITE_URL).toString();
  return { url: qrConnectUrl(config, redirectUri, state), state };
}

async function findByWechat(db: Db, user: WechatUser): Promise<Account | undefined> {
  if (user.unionid) {
    const [byUnion] = await db.select().from(accounts).where(eq(accounts.wechatUnionid, user.unionid)).limit(1);
    if (byUnion) return byUnion;
  }
  const [byOpen] = await db.select().from(accounts).where(eq(accounts.wechatOpenid, user.openid)).limit(1);
  return byOpen;
}

async function accountForWechat(db: Db, user: WechatUser, now: Date): Promise<Account> {
  const found = await findByWechat(db, user);
  if (found) {
    if (user.unionid && !found.wechatUnionid) {
      await db.update(accounts).set({ wechatUnionid: user.unionid }).where(eq(accounts.id, found.id));
    }
    return found;
  }
  try {
    const [created] = await db
      .insert(accounts)
      .values({
        wechatUnionid: user.unionid ?? null,
        wechatOpenid: user.openid,
        wechatNickname: user.nickname || null,
        nickname: user.nickname || '微信用户',
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (created) {
      await welcome(created.id, db);
      return created;
    }
  } catch (error) {
    // Two callbacks for the same person at once: the other one created the account.
    if (!isUniqueViolation(error)) throw error;
  }
  const again = await findByWechat(db, user);
  if (!again) throw new Error('WeChat account vanished after a unique violation');
  return again;
}

/** The outcome of a WeChat callback. */
export type WechatOutcome =
  | { mode: 'login'; session: IssuedSession; redirect: string }
  | { mode: 'bind'; redirect: string };

/**
 * Finishes a WeChat authorisation. The state must match the browser's cookie and a stored, unused,
 * unexpired state (it is deleted before WeChat is asked, so it works once). Login signs in the
 * account of this WeChat user (unionid, else openid), creating it on first use; bind attaches the
 * WeChat user to the account that started the binding.
 */
export async function finishWechatAuthorization(
  ctx: AuthContext,
  input: { code: string | undefined; state: string | undefined; cookieState: string | undefined },
  meta: RequestMeta,
): Promise<WechatOutcome> {
  const config = requireConfig();
  if (!input.state || !input.cookieState || !safeEqual(input.state, input.cookieState)) {
    throw badRequest(STATE_INVALID_MESSAGE);
  }
  const db = await configuredDb();
  const [stored] = await db
    .delete(wechatStates)
    .where(eq(wechatStates.id, sha256Hex(input.state)))
    .returning();
  if (!stored || stored.expiresAt.getTime() <= ctx.clock()) throw badRequest(STATE_INVALID_MESSAGE);
  if (!input.code) throw badRequest('你取消了微信授权');
  const user = await fetchWechatUser(config, input.code, ctx.fetch);
  const now = new Date(ctx.clock());

  if (stored.mode === 'bind') {
    if (!stored.accountId) throw badRequest(STATE_INVALID_MESSAGE);
    const owner = await findByWechat(db, user);
    if (owner && owner.id !== stored.accountId) throw badRequest('这个微信已绑定其他账户');
    try {
      await db
        .update(accounts)
        .set({
          wechatUnionid: user.unionid ?? null,
          wechatOpenid: user.openid,
          wechatNickname: user.nickname || null,
          updatedAt: now,
        })
        .where(eq(accounts.id, stored.accountId));
    } catch (error) {
      if (isUniqueViolation(error)) throw badRequest('这个微信已绑定其他账户');
      throw error;
    }
    return { mode: 'bind', redirect: stored.redirect };
  }

  const account = await accountForWechat(db, user, now);
  if (account.disabledAt) throw new ApiError(403, '403', '该账户已停用，请联系管理员');
  const session = await createSession(db, account.id, {
    clock: ctx.clock,
    ttlSeconds: env().SESSION_TTL_SECONDS,
    userAgent: meta.userAgent,
    ip: meta.ip,
  });
  return { mode: 'login', session, redirect: stored.redirect };
}
