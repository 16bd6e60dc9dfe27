import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import { clientIp, sessionAccount } from '../auth/current-account.ts';
import { addressKey } from '../http/address-key.ts';

/** Who asks for tool work: a logged-in account, or else the address the request came from. */
export interface ToolClient {
  /** 'account:<id>' or 'ip:<hash>'; the key the per-client limits and the fair queue use. */
  key: string;
  accountId: number | null;
}

/**
 * The client of a tools request. Addresses are kept only as a short hash: enough to tell
 * clients apart for limits and fairness, without storing where anyone connects from.
 */
export async function toolClient(c: Context): Promise<ToolClient> {
  const accountId = await sessionAccount(c);
  if (accountId !== null) return { key: `account:${accountId}`, accountId };
  // A whole IPv6 /64 is one client, as it is one subscriber (http/address-key.ts).
  const ip = addressKey(clientIp(c) ?? 'unknown');
  return { key: `ip:${createHash('sha256').update(ip).digest('hex').slice(0, 16)}`, accountId: null };
}

/** The client of work the site starts itself (tests, scripts). */
export const SITE_CLIENT: ToolClient = { key: 'site', accountId: null };
