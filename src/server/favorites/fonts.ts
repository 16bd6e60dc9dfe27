import { and, asc, count, desc, eq, inArray } from 'drizzle-orm';
import type {
  FavoriteFontEntry,
  FavoriteFontGroup,
  FavoriteFontResource,
  FavoriteGroupDetail,
  FontResource,
} from '../../contract/fonts.ts';
import { db as configuredDb, type Db } from '../db/client.ts';
import { favoriteGroupFonts, favoriteGroups, favorites, fontFamilies } from '../db/schema/index.ts';
import { toResources } from '../fonts/catalogue.ts';
import { findPublishedFamily } from '../fonts/detail.ts';
import { defaultSamples } from '../fonts/samples.ts';
import { badRequest, notFound } from '../http/envelope.ts';
import { forgetFavorite, keepFavorite } from './store.ts';

export type { FavoriteFontEntry, FavoriteFontGroup, FavoriteGroupDetail };

/** Most favourite groups one account may keep. */
export const MAX_FAVORITE_GROUPS = 50;

/** The name of the group that holds the star button's favourites. */
export const DEFAULT_GROUP_NAME = '我的收藏';

async function familyIdOf(db: Db, fontGNo: string): Promise<number> {
  const family = await findPublishedFamily(db, fontGNo);
  if (!family) throw notFound('字体不存在或已下架');
  return family.id;
}

/** The account's own group, or 404: another user's group is as good as missing. */
async function ownGroup(db: Db, accountId: number, groupId: number) {
  const [group] = await db
    .select()
    .from(favoriteGroups)
    .where(and(eq(favoriteGroups.id, groupId), eq(favoriteGroups.accountId, accountId)));
  if (!group) throw notFound('收藏夹不存在');
  return group;
}

/** Stars a family, or files it in one of the account's groups; adding it again changes nothing. */
export async function addFavoriteFont(
  accountId: number,
  input: { fontGNo: string; groupId?: number | undefined },
  database?: Db,
): Promise<void> {
  const db = database ?? (await configuredDb());
  const familyId = await familyIdOf(db, input.fontGNo);
  if (input.groupId) {
    await ownGroup(db, accountId, input.groupId);
    await db.insert(favoriteGroupFonts).values({ groupId: input.groupId, familyId }).onConflictDoNothing();
    return;
  }
  await keepFavorite(db, accountId, { target: 'font', familyId });
}

/** Unstars a family, or takes it out of one of the account's groups; removing an absent one is fine. */
export async function deleteFavoriteFont(
  accountId: number,
  input: { fontGNo: string; groupId?: number | undefined },
  database?: Db,
): Promise<void> {
  const db = database ?? (await configuredDb());
  const familyId = await familyIdOf(db, input.fontGNo);
  if (input.groupId) {
    await ownGroup(db, accountId, input.groupId);
    await db
      .delete(favoriteGroupFonts)
      .where(and(eq(favoriteGroupFonts.groupId, input.groupId), eq(favoriteGroupFonts.familyId, familyId)));
    return;
  }
  await forgetFavorite(db, accountId, { target: 'font', familyId });
}

/**
 * Every favourite font of the account (collection/allFont): the starred families as group 0, then
 * each named group, oldest first, with the families in the order they were added.
 */
export async function allFavoriteFonts(accountId: number, database?: Db): Promise<FavoriteFontGroup[]> {
  const db = database ?? (await configuredDb());
  const starred = await db
    .select({ fontGNo: fontFamilies.gno, familyName: fontFamilies.nameZh, createdAt: favorites.createdAt })
    .from(favorites)
    .innerJoin(fontFamilies, eq(favorites.familyId, fontFamilies.id))
    .where(and(eq(favorites.accountId, accountId), eq(favorites.target, 'font')))
    .orderBy(asc(favorites.createdAt), asc(fontFamilies.id));
  const groups = await db
    .select()
    .from(favoriteGroups)
    .where(eq(favoriteGroups.accountId, accountId))
    .orderBy(asc(favoriteGroups.createdAt), asc(favoriteGroups.id));
  const members =
    groups.length === 0
      ? []
      : await db
          .select({
            groupId: favoriteGroupFonts.groupId,
            fontGNo: fontFamilies.gno,
            familyName: fontFamilies.nameZh,
            createdAt: favoriteGroupFonts.createdAt,
          })
          .from(favoriteGroupFonts)
          .innerJoin(fontFamilies, eq(favoriteGroupFonts.familyId, fontFamilies.id))
          .where(
            inArray(
              favoriteGroupFonts.groupId,
              groups.map((group) => group.id),
            ),
          )
          .orderBy(asc(favoriteGroupFonts.createdAt));
  const entry = (row: { fontGNo: string; familyName: string; createdAt: Date }): FavoriteFontEntry => ({
    fontGNo: row.fontGNo,
    familyName: row.familyName,
    createdAt: row.createdAt.toISOString(),
  });
  return [
    { id: 0, name: DEFAULT_GROUP_NAME, fontList: starred.map(entry) },
    ...groups.map((group) => ({
      id: group.id,
      name: group.name,
      fontList: members.filter((member) => member.groupId === group.id).map(entry),
    })),
  ];
}

/** Creates a named favourite group (collection/add). */
export async function createFavoriteGroup(accountId: number, name: string, database?: Db): Promise<FavoriteFontGroup> {
  const db = database ?? (await configuredDb());
  const [owned] = await db.select({ n: count() }).from(favoriteGroups).where(eq(favoriteGroups.accountId, accountId));
  if ((owned?.n ?? 0) >= MAX_FAVORITE_GROUPS) throw badRequest(`最多创建 ${MAX_FAVORITE_GROUPS} 个收藏夹`);
  const [group] = await db.insert(favoriteGroups).values({ accountId, name }).returning();
  if (!group) throw new Error('insert returned no favourite group');
  return { id: group.id, name: group.name, fontList: [] };
}

/** Renames one of the account's groups (collection/update); another user's group answers 404. */
export async function renameFavoriteGroup(
  accountId: number,
  groupId: number,
  name: string,
  database?: Db,
): Promise<void> {
  const db = database ?? (await configuredDb());
  await ownGroup(db, accountId, groupId);
  await db.update(favoriteGroups).set({ name }).where(eq(favoriteGroups.id, groupId));
}

/** Deletes one of the account's groups and its entries (collection/delete); another user's answers 404. */
export async function deleteFavoriteGroup(accountId: number, groupId: number, database?: Db): Promise<void> {
  const db = database ?? (await configuredDb());
  await ownGroup(db, accountId, groupId);
  await db.delete(favoriteGroups).where(eq(favoriteGroups.id, groupId));
}

/**
 * Each family with the line the library draws it in: a fixed Simplified line marked Traditional
 * and Japanese faces as missing characters they were never meant to have.
 */
async function withSamples(db: Db, fonts: FontResource[]): Promise<FavoriteFontResource[]> {
  const samples = await defaultSamples(fonts, db);
  return fonts.map((font) => ({ ...font, sample: samples.get(font.fontGNo)?.line ?? font.familyName }));
}

/** One group with the resource items of its families (collection/getDetail); group 0 is the starred list. */
export async function favoriteGroupDetail(
  accountId: number,
  groupId: number,
  database?: Db,
): Promise<FavoriteGroupDetail> {
  const db = database ?? (await configuredDb());
  if (groupId === 0) {
    const rows = await db
      .select({ family: fontFamilies })
      .from(favorites)
      .innerJoin(fontFamilies, eq(favorites.familyId, fontFamilies.id))
      .where(and(eq(favorites.accountId, accountId), eq(favorites.target, 'font'), eq(fontFamilies.published, true)))
      .orderBy(desc(favorites.createdAt));
    const fontList = await withSamples(
      db,
      await toResources(
        db,
        rows.map((row) => row.family),
      ),
    );
    return { id: 0, name: DEFAULT_GROUP_NAME, createdAt: new Date(0).toISOString(), fontList };
  }
  const group = await ownGroup(db, accountId, groupId);
  const rows = await db
    .select({ family: fontFamilies })
    .from(favoriteGroupFonts)
    .innerJoin(fontFamilies, eq(favoriteGroupFonts.familyId, fontFamilies.id))
    .where(and(eq(favoriteGroupFonts.groupId, groupId), eq(fontFamilies.published, true)))
    .orderBy(desc(favoriteGroupFonts.createdAt));
  const fontList = await withSamples(
    db,
    await toResources(
      db,
      rows.map((row) => row.family),
    ),
  );
  return { id: group.id, name: group.name, createdAt: group.createdAt.toISOString(), fontList };
}
