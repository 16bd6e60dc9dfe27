import { and, countDistinct, eq, isNotNull, sql } from 'drizzle-orm';
import { db as configuredDb, type Db } from '../db/client.ts';
import { accounts, articles, fontFamilies, fonts } from '../db/schema/index.ts';

/**
 * The alliance's numbers as the site shows them (SPEC §7 Common, `marketing-dict/dict-number`):
 * what the library holds and how much it is used, counted from the database when asked, so they
 * are never a hand-kept figure that drifts.
 */
export interface SiteNumbers {
  /** Published font families. */
  fontFamilies: number;
  /** Weights and styles of those families, each a font file. */
  fontFaces: number;
  /** Distinct designers credited on published families. */
  designers: number;
  /** Downloads of every published family together. */
  downloads: number;
  /** Published articles of every kind (news, encyclopedia, consulting, cases). */
  articles: number;
  /** Registered accounts. */
  members: number;
}

export async function siteNumbers(db: Db | undefined = undefined): Promise<SiteNumbers> {
  const handle = db ?? (await configuredDb());
  const [families] = await handle
    .select({
      fontFamilies: sql<number>`count(*)::int`,
      designers: countDistinct(fontFamilies.designer),
      downloads: sql<number>`coalesce(sum(${fontFamilies.downloads}), 0)::int`,
    })
    .from(fontFamilies)
    .where(eq(fontFamilies.published, true));
  const [faces] = await handle
    .select({ fontFaces: sql<number>`count(*)::int` })
    .from(fonts)
    .innerJoin(fontFamilies, eq(fontFamilies.id, fonts.familyId))
    .where(eq(fontFamilies.published, true));
  const [published] = await handle
    .select({ articles: sql<number>`count(*)::int` })
    .from(articles)
    .where(and(eq(articles.status, 'published'), isNotNull(articles.publishedAt)));
  const [members] = await handle.select({ members: sql<number>`count(*)::int` }).from(accounts);
  return {
    fontFamilies: families?.fontFamilies ?? 0,
    fontFaces: faces?.fontFaces ?? 0,
    designers: Number(families?.designers ?? 0),
    downloads: families?.downloads ?? 0,
    articles: published?.articles ?? 0,
    members: members?.members ?? 0,
  };
}
