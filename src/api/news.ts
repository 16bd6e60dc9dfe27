import { get } from './http.ts';
import type { Id, Page, PageQuery, Query } from './types.ts';

const BASE = '/web/api/web-wenzhang';

/** An article (wenzhang 文章): news and consulting articles share the call, told apart by type. */
export interface Article {
  id: Id;
  title: string;
  [key: string]: unknown;
}

/** One page of articles. */
export const getArticlePage = (query: PageQuery & Query = {}) => get<Page<Article>>(`${BASE}/selectPage`, query);

/** One article. */
export const getArticleDetail = (id: Id) => get<Article>(`${BASE}/getDetailById`, { id });
