import { desc } from 'drizzle-orm';
import { db as configuredDb, type Db } from '../db/client.ts';
import { friendLinks } from '../db/schema/index.ts';
import { storage } from '../storage/index.ts';

/** A friendly link as the footer receives it. */
export interface FriendLinkItem {
  id: number;
  name: string;
  url: string;
  /** Public address of the logo, or null when the link has none. */
  logo: string | null;
  sort: number;
}

/** The friendly links, highest `sort` first (SPEC §3); equal sorts keep their creation order. */
export async function listFriendLinks(database?: Db): Promise<FriendLinkItem[]> {
  const db = database ?? (await configuredDb());
  const rows = await db.select().from(friendLinks).orderBy(desc(friendLinks.sort), friendLinks.id);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    url: row.url,
    logo: row.logoKey ? storage().url(row.logoKey) : null,
    sort: row.sort,
  }));
}
