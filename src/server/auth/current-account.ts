import type { Context, MiddlewareHandler } from 'hono';
import { db } from '../db/client.ts';
import { ApiError, unauthorized } from '../http/envelope.ts';
import { systemClock } from './clock.ts';
import { readToken, SESSION_EXPIRED_CODE, clientIp as socketOrProxyIp } from './middleware.ts';
import { findSession } from './sessions.ts';

/** Finds the logged-in account of a request, or null for a visitor. */
export type AccountResolver = (c: Context) => Promise<number | null>;

/**
 * The account of the token in the `alliance-authenticate` header or the `token` cookie (SPEC §6),
 * read the way the accounts middleware reads it. An expired token answers 401 with S00106 (SPEC §8);
 * a missing, unknown or revoked one is a visitor. Routes that serve visitors too (downloads) and
 * routes that need a login take it as an injectable resolver, so tests can log in without a session.
 */
export const sessionAccount: AccountResolver = (c) => {
  // Asked by several steps of one request (the idempotency of a write, then its route): read once.
  let found = resolved.get(c);
  if (!found) {
    found = lookUp(c);
    resolved.set(c, found);
  }
  return found;
};

const resolved = new WeakMap<Context, Promise<number | null>>();

async function lookUp(c: Context): Promise<number | null> {
  const token = readToken(c);
  if (!token) return null;
  const found = await findSession(await db(), token, systemClock);
  if (found.status === 'valid') return found.account.id;
  if (found.status === 'expired') throw new ApiError(401, SESSION_EXPIRED_CODE, '登录已过期，请重新登录');
  return null;
}

// Accounts already resolved for a request by `signedIn`, so the handler's own check asks no again.
const signedInAccounts = new WeakMap<Context, number>();

/** The logged-in account of a request, or 401 '请先登录'. */
export async function requireAccount(resolve: AccountResolver, c: Context): Promise<number> {
  const known = signedInAccounts.get(c);
  if (known !== undefined) return known;
  const accountId = await resolve(c);
  if (accountId === null) throw unauthorized('请先登录');
  return accountId;
}

/**
 * Requires a login before anything else of the route runs, its body's validation included: a call
 * that needs an account answers a visitor 401 without reading a byte of what was sent
 * (http/body-limit.ts reads a body only when a route asks for it). Put it before `validate`.
 */
export function signedIn(resolve: AccountResolver = sessionAccount): MiddlewareHandler {
  return async (c, next) => {
    signedInAccounts.set(c, await requireAccount(resolve, c));
    await next();
  };
}

/** The client's IP (X-Forwarded-For only with TRUST_PROXY), or null when the runtime does not say. */
export function clientIp(c: Context): string | null {
  const ip = socketOrProxyIp(c);
  return ip === 'unknown' ? null : ip;
}
