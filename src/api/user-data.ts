import { del, get, post, put } from './http.ts';
import type { Id, Page, PageQuery, Query } from './types.ts';

const GROUPS = '/web/api/fontOverride/collection';

/** A record whose fields the owning issue defines. */
export interface UserRecord {
  id: Id;
  [key: string]: unknown;
}

/** A notification of the message centre. */
export interface Notification {
  id: Id;
  title: string;
  readAt?: string | null;
  [key: string]: unknown;
}

/** The user's download history. */
export const getDownloadHistory = (query: PageQuery & Query = {}) =>
  get<Page<UserRecord>>('/web/api/fontOverride/history', query);

/** Creates a favourite font group. */
export const addFontGroup = (body: { name: string }) => post<UserRecord>(`${GROUPS}/add`, body);

/** Renames a favourite font group. */
export const updateFontGroup = (id: Id, body: { name: string }) =>
  put<null>(`${GROUPS}/update`, body, { query: { id } });

/** Deletes a favourite font group. */
export const deleteFontGroup = (id: Id) => del<null>(`${GROUPS}/delete`, { id });

/** One favourite font group with its fonts. */
export const getFontGroupDetail = (id: Id) => get<UserRecord>(`${GROUPS}/getDetail`, { id });

/** Adds a family to a favourite group (or to the plain favourites without a group). */
export const addFavoriteFont = (body: { fontGNo: string; groupId?: Id }) => post<null>(`${GROUPS}/addFont`, body);

/** Removes a family from a favourite group. */
export const deleteFavoriteFont = (body: { fontGNo: string; groupId?: Id }) => post<null>(`${GROUPS}/deleteFont`, body);

/** The personal favourites summary. */
export const getPersonalFavorites = () => get<Record<string, unknown>>('/api/v1/web/personal/favorite/data');

/** A short-lived token for the personal favourites export. */
export const getPersonalFavoriteToken = () => get<string>('/api/v1/web/personal/favorite/token');

/** The news the user follows. */
export const getMyNews = (query: PageQuery & Query = {}) => get<Page<UserRecord>>('/api/v1/news/my-news', query);

/** Marks a notification read. */
export const markNotificationRead = (id: Id) => get<null>(`/api/v1/web/notify/${encodeURIComponent(String(id))}/read`);

/** One page of notifications of a type. */
export const getNotificationPage = (query: PageQuery & { type?: string | number } & Query) =>
  get<Page<Notification>>('/api/v1/web/notifyList', query);

/** The notification summary (unread counts by type). */
export const getNotificationSummary = () => get<Record<string, unknown>>('/api/v1/web/notify');
