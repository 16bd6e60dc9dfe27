import { and, eq, type SQL } from 'drizzle-orm';
import type { FontGroupType } from '../../contract/content.ts';
import type { Db } from '../db/client.ts';
import { favorites } from '../db/schema/index.ts';

// One favourites table for everything a user keeps: families (the star button), albums and
// collections, articles. The font and content services check that what is kept exists and is
// published, then keep or forget it here, the same way for every kind.

/** What a favourite points at. */
export type FavoriteRef =
  | { target: 'font'; familyId: number }
  | { target: 'group'; groupKind: FontGroupType; groupId: number }
  | { target: 'article'; articleId: number };

/** The row values of a reference: its own column set, the others empty. */
function columnsOf(ref: FavoriteRef) {
  return {
    target: ref.target,
    familyId: ref.target === 'font' ? ref.familyId : null,
    groupKind: ref.target === 'group' ? ref.groupKind : null,
    groupId: ref.target === 'group' ? ref.groupId : null,
    articleId: ref.target === 'article' ? ref.articleId : null,
  };
}

/** The condition that finds one account's favourite of a reference. */
export function favoriteOf(accountId: number, ref: FavoriteRef): SQL {
  const where = [eq(favorites.accountId, accountId), eq(favorites.target, ref.target)];
  if (ref.target === 'font') where.push(eq(favorites.familyId, ref.familyId));
  if (ref.target === 'group') where.push(eq(favorites.groupKind, ref.groupKind), eq(favorites.groupId, ref.groupId));
  if (ref.target === 'article') where.push(eq(favorites.articleId, ref.articleId));
  return and(...where) as SQL;
}

/** Keeps something for an account; keeping it again changes nothing. */
export async function keepFavorite(db: Db, accountId: number, ref: FavoriteRef): Promise<void> {
  await db
    .insert(favorites)
    .values({ accountId, ...columnsOf(ref) })
    .onConflictDoNothing();
}

/** Lets something go; what was not kept is no error. */
export async function forgetFavorite(db: Db, accountId: number, ref: FavoriteRef): Promise<void> {
  await db.delete(favorites).where(favoriteOf(accountId, ref));
}
