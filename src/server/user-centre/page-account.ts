import { systemClock } from '../auth/clock.ts';
import { findSession } from '../auth/sessions.ts';
import { db } from '../db/client.ts';

/**
 * The account behind a page request's `token` cookie, or null when the session is unknown, ended
 * or expired. The middleware already sent visitors without a cookie to the login; a page that gets
 * null sends the reader there too.
 */
export async function pageAccount(token: string | undefined): Promise<number | null> {
  if (!token || token.length > 256) return null;
  const found = await findSession(await db(), token, systemClock);
  return found.status === 'valid' ? found.account.id : null;
}
