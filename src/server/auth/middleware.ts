import type { IncomingMessage } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { db } from '../db/client.ts';
import { env } from '../env.ts';
import { clientAddressOf } from '../http/address-key.ts';
import { ApiError } from '../http/envelope.ts';
import type { AuthContext } from './context.ts';
import { findSession, type IssuedSession, type SessionAccount } from './sessions.ts';

/** The request header that carries the token (SPEC §6). */
export const TOKEN_HEADER = 'alliance-authenticate';
/** The cookie that carries the token (SPEC §4). */
export const TOKEN_COOKIE = 'token';
/** The envelope code of an expired session (SPEC §8): the client clears its token and goes home. */
export const SESSION_EXPIRED_CODE = 'S00106';

/** What the runtime passes to the app: Astro's client address, or Node's request (npm run api). */
export interface ApiBindings {
  clientAddress?: string;
  incoming?: IncomingMessage;
}

/** The Hono environment of routes behind {@link authenticate}: the signed-in account and its session. */
export interface AuthEnv {
  Bindings: ApiBindings;
  Variables: { account: SessionAccount; sessionId: string };
}

/**
 * The caller's IP address. X-Forwarded-For is believed only with TRUST_PROXY (behind a proxy that
 * sets it), since anyone can send the header; otherwise the socket's address.
 */
export function clientIp(c: Context): string {
  const bindings = (c.env ?? {}) as ApiBindings;
  return clientAddressOf(
    c.req.header('x-forwarded-for'),
    bindings.clientAddress || bindings.incoming?.socket?.remoteAddress,
    env().TRUST_PROXY,
  );
}

// Longer values are not tokens; they are refused before any work is done.
const MAX_TOKEN_LENGTH = 256;

/** The token of a request: the header first, then the cookie; '' when there is none. */
export function readToken(c: Context): string {
  const value = c.req.header(TOKEN_HEADER) || getCookie(c, TOKEN_COOKIE) || '';
  return value.length > MAX_TOKEN_LENGTH ? '' : value.trim();
}

/**
 * Requires a valid session and puts its account into the context. No token, an unknown, revoked
 * or malformed one answers 401; an expired one answers 401 with code S00106 (SPEC §8), so the
 * client clears its token either way.
 */
export function authenticate(ctx: AuthContext): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    const { account, sessionId } = await requireSession(c, ctx);
    c.set('account', account);
    c.set('sessionId', sessionId);
    await next();
  };
}

/** The session of a request, or the 401 that {@link authenticate} answers; for handlers that need a login only sometimes. */
export async function requireSession(
  c: Context,
  ctx: AuthContext,
): Promise<{ account: SessionAccount; sessionId: string }> {
  const token = readToken(c);
  if (!token) throw new ApiError(401, '401', '请先登录');
  const found = await findSession(await db(), token, ctx.clock);
  if (found.status === 'expired') throw new ApiError(401, SESSION_EXPIRED_CODE, '登录已过期，请重新登录');
  if (found.status !== 'valid') throw new ApiError(401, '401', '登录状态已失效，请重新登录');
  return { account: found.account, sessionId: found.sessionId };
}

/**
 * Sets the `token` cookie the way the front end keeps it (SPEC §4): path /, SameSite=Lax, Secure
 * on https, the session's lifetime. It is readable by scripts because the front end copies it into
 * the request header (docs/accounts.md explains the trade-off).
 */
export function setTokenCookie(c: Context, session: IssuedSession): void {
  const config = env();
  // The answer carries a session token: no cache, shared or the browser's own, may keep it.
  c.header('Cache-Control', 'no-store');
  setCookie(c, TOKEN_COOKIE, session.token, {
    path: '/',
    sameSite: 'Lax',
    secure: config.SITE_URL.startsWith('https:'),
    maxAge: session.expired,
    ...(config.PUBLIC_COOKIE_DOMAIN ? { domain: config.PUBLIC_COOKIE_DOMAIN } : {}),
  });
}

/** Removes the `token` cookie (logout). */
export function clearTokenCookie(c: Context): void {
  const config = env();
  c.header('Cache-Control', 'no-store');
  deleteCookie(c, TOKEN_COOKIE, {
    path: '/',
    secure: config.SITE_URL.startsWith('https:'),
    ...(config.PUBLIC_COOKIE_DOMAIN ? { domain: config.PUBLIC_COOKIE_DOMAIN } : {}),
  });
}
