import type { FavoriteFontEntry, FavoriteFontGroup } from '../contract/fonts.ts';
import { get, post } from './http.ts';
import type { Id } from './types.ts';

export type { FavoriteFontEntry, FavoriteFontGroup };

/** A favourite album/collection or article: it carries its id (SPEC §3). */
export interface FavoriteEntry {
  id: Id;
  [key: string]: unknown;
}

const FONT_BASE = '/web/api/fontOverride/collection';
const BASE = '/web/api/favorite';

/** Every favourite font of the user, by group. */
export const getFavoriteFonts = () => get<FavoriteFontGroup[]>(`${FONT_BASE}/allFont`);

/** The albums and collections the user keeps. */
export const getFavoriteCollects = () => get<FavoriteEntry[]>(`${BASE}/getCollByUser`);

/** The articles the user keeps. */
export const getFavoriteArticles = () => get<FavoriteEntry[]>(`${BASE}/getArticleByUser`);

/** Keeps an album or collection. */
export const addFavoriteCollect = (id: Id) => post<null>(`${BASE}/addColl`, { id });

/** Lets an album or collection go. */
export const deleteFavoriteCollect = (id: Id) => post<null>(`${BASE}/deleteColl`, { id });

/** Keeps an article. */
export const addFavoriteArticle = (id: Id) => post<null>(`${BASE}/addArt`, { id });

/** Lets an article go. */
export const deleteFavoriteArticle = (id: Id) => post<null>(`${BASE}/deleteArt`, { id });
