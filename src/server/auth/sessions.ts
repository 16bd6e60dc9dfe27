import { and, eq, lte, ne } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { accounts, sessions } from '../db/schema/index.ts';
import type { Clock } from './clock.ts';
import { isTokenShaped, newToken, sha256Hex } from './tokens.ts';

/** What a login hands to the client: the token and its lifetime in seconds (SPEC §3). */
export interface IssuedSession {
  token: string;
  expired: number;
}

/** The account a valid token belongs to, as the rest of the server sees it. */
export type SessionAccount = typeof accounts.$inferSelect;

/** The result of looking a token up. */
export type SessionLookup =
  | { status: 'valid'; account: SessionAccount; sessionId: string }
  | { status: 'expired' }
  | { status: 'invalid' };

// lastSeenAt is written at most this often, so busy pages do not write on every request.
const TOUCH_INTERVAL_MS = 60_000;

/**
 * Starts a session: a fresh random token each time (ASVS 7.2.4), of which only the SHA-256 is
 * stored, so a leaked table gives no usable tokens. Expired sessions of the account are removed.
 */
export async function createSession(
  db: Db,
  accountId: number,
  options: { clock: Clock; ttlSeconds: number; userAgent?: string | undefined; ip?: string | undefined },
): Promise<IssuedSession> {
  const token = newToken();
  const now = options.clock();
  await db.delete(sessions).where(and(eq(sessions.accountId, accountId), lte(sessions.expiresAt, new Date(now))));
  await db.insert(sessions).values({
    id: sha256Hex(token),
    accountId,
    createdAt: new Date(now),
    lastSeenAt: new Date(now),
    expiresAt: new Date(now + options.ttlSeconds * 1000),
    userAgent: options.userAgent?.slice(0, 512) ?? null,
    ip: options.ip ?? null,
  });
  return { token, expired: options.ttlSeconds };
}

/**
 * Looks a token up. An expired session is kept and reported as expired on every call (SPEC §8:
 * S00106), not only the first; the account's next login removes it (see createSession).
 */
export async function findSession(db: Db, token: string, clock: Clock): Promise<SessionLookup> {
  if (!isTokenShaped(token)) return { status: 'invalid' };
  const id = sha256Hex(token);
  const [row] = await db
    .select({ session: sessions, account: accounts })
    .from(sessions)
    .innerJoin(accounts, eq(accounts.id, sessions.accountId))
    .where(eq(sessions.id, id))
    .limit(1);
  if (!row) return { status: 'invalid' };
  const now = clock();
  if (row.session.expiresAt.getTime() <= now) return { status: 'expired' };
  if (row.account.disabledAt) return { status: 'invalid' };
  if (now - row.session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
    await db
      .update(sessions)
      .set({ lastSeenAt: new Date(now) })
      .where(eq(sessions.id, id));
  }
  return { status: 'valid', account: row.account, sessionId: id };
}

/** Ends one session by its token (logout); an unknown token is not an error. */
export async function deleteSessionByToken(db: Db, token: string): Promise<void> {
  if (!isTokenShaped(token)) return;
  await db.delete(sessions).where(eq(sessions.id, sha256Hex(token)));
}

/**
 * Ends every session of an account except `keepSessionId` (ASVS 7.4.3: after a password change
 * the other devices must sign in again). Without `keepSessionId` all sessions end.
 */
export async function revokeSessions(db: Db, accountId: number, keepSessionId?: string): Promise<void> {
  const condition = keepSessionId
    ? and(eq(sessions.accountId, accountId), ne(sessions.id, keepSessionId))
    : eq(sessions.accountId, accountId);
  await db.delete(sessions).where(condition);
}
