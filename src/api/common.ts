import type { SiteContact } from '../contract/site.ts';
import { get, post, quietHttp } from './http.ts';
import type { BodyOf, Id, Page, PageQuery, Query } from './types.ts';

/** A friendly link of the footer (SPEC §3: listed by `sort`, highest first). */
export interface FriendLink {
  id: Id;
  name: string;
  url: string;
  logo?: string | null;
  sort: number;
}

/** A navigation column (web-column). */
export interface Column {
  id: Id;
  name: string;
  path: string;
  sort: number;
}

/** A record with an id whose other fields the owning issue defines. */
export interface Item {
  id: Id;
  [key: string]: unknown;
}

/** Leaves a message on the contact board. */
export const saveBoardMessage = (body: BodyOf<'/web/api/messageBoard/save', 'post'>) =>
  post<Item>('/web/api/messageBoard/save', body);

/** The navigation columns of one type. */
export const getColumnsByType = (type: string) => get<Column[]>('/web/api/web-column/getColumnByType', { type });

/** The advertisements of a position. */
export const getAds = (query: Query = {}) => get<Item[]>('/web/api/fontOverride/adv/getData', query);

/**
 * The footer's friendly links. Loaded on every page in the background, so it goes through the quiet
 * client: a failure leaves the list empty instead of interrupting the visitor.
 */
export const getFriendLinks = () => quietHttp<FriendLink[]>('/web/api/friendshipLinks/getFriendshipLinks');

/** The site's record numbers and contact channels, as the operator configured them. */
export const getSiteContact = () => quietHttp<SiteContact>('/web/api/site/contact');

/** Suggested search keywords. */
export const getKeywords = (query: Query = {}) => get<Item[]>('/web/api/keyword/getKeyword', query);

/** Searches fonts and articles together. */
export const searchAll = (query: PageQuery & Query) => get<Page<Item>>('/web/api/web-findAll/getByParameter', query);

/** One page of promotions. */
export const getPromotionPage = (query: PageQuery & Query = {}) =>
  get<Page<Item>>('/web/api/web-promotion/selectPage', query);

/** One promotion. */
export const getPromotionDetail = (id: Id) => get<Item>('/web/api/web-promotion/getDetail', { id });

/** The marketing dictionary numbers (labels shown in marketing blocks). */
export const getMarketingDict = (query: Query = {}) =>
  get<Record<string, unknown>>('/web/api/marketing-dict/dict-number', query);

/** The template text of a type for contributors (e.g. the licence agreement). */
export const getContributeTemplate = (type: string) => get<Item>('/web/api/contributeTemplate/queryByType', { type });
