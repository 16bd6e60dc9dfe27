import type { FavoriteGroupDetail } from '../contract/fonts.ts';
import type {
  NotificationItem,
  NotificationSummary,
  NotificationType,
  SigningFields,
  SigningState,
  UserOverview,
} from '../contract/messages.ts';
import type { FavoriteEntry } from './favorites.ts';
import { del, get, post, put } from './http.ts';
import type { Id, Page, PageQuery, Query } from './types.ts';

const GROUPS = '/web/api/fontOverride/collection';

/** A record whose fields the owning issue defines. */
export interface UserRecord {
  id: Id;
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
export const getFontGroupDetail = (id: Id) => get<FavoriteGroupDetail>(`${GROUPS}/getDetail`, { id });

/** Adds a family to a favourite group (or to the plain favourites without a group). */
export const addFavoriteFont = (body: { fontGNo: string; groupId?: number }) => post<null>(`${GROUPS}/addFont`, body);

/** Removes a family from a favourite group. */
export const deleteFavoriteFont = (body: { fontGNo: string; groupId?: number }) =>
  post<null>(`${GROUPS}/deleteFont`, body);

/** The personal favourites summary: counts and the latest kept items. */
export const getPersonalFavorites = () => get<UserOverview['favorites']>('/api/v1/web/personal/favorite/data');

/** The articles the user keeps, newest kept first ("my news"). */
export const getMyNews = (query: PageQuery & Query = {}) => get<Page<FavoriteEntry>>('/api/v1/news/my-news', query);

/** Marks a notification read and answers it. */
export const markNotificationRead = (id: Id) =>
  get<NotificationItem>(`/api/v1/web/notify/${encodeURIComponent(String(id))}/read`);

/** Marks every unread notification (of one type) read. */
export const markAllNotificationsRead = (type?: NotificationType) =>
  post<{ marked: number }>('/api/v1/web/notify/read-all', type ? { type } : {});

/** One page of notifications, of one type or of all. */
export const getNotificationPage = (query: PageQuery & { type?: NotificationType } & Query) =>
  get<Page<NotificationItem>>('/api/v1/web/notifyList', query);

/** The unread counts by type and the newest unread messages; `background` polls move no progress bar. */
export const getNotificationSummary = (options: { background?: boolean } = {}) =>
  get<NotificationSummary>('/api/v1/web/notify', undefined, { quiet: true, ...options });

/** The user centre's home in one answer. */
export const getUserOverview = () => get<UserOverview>('/web/api/user/overview');

/** The contributor agreement and the user's signature. */
export const getSigningState = () => get<SigningState>('/web/api/signing');

/** Signs the contributor agreement; a drawn signature is a PNG data URL. */
export const signAgreement = (
  body: SigningFields & {
    version: string;
    agree: true;
    signature: { kind: 'typed' } | { kind: 'drawn'; image: string };
  },
) => post<NonNullable<SigningState['signed']>>('/web/api/signing', body);
