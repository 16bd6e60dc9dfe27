// baike 百科: the calligraphy encyclopedia.
import { get } from './http.ts';
import type { Id, Page, PageQuery, Query } from './types.ts';

const BASE = '/web/api/shufa-baike';

/** An encyclopedia entry. */
export interface BaikeEntry {
  id: Id;
  title: string;
  [key: string]: unknown;
}

/** Entry titles under a tag (楷书, 行书 …). */
export const getBaikeTitlesByTag = (query: { tagId?: Id } & Query = {}) =>
  get<BaikeEntry[]>(`${BASE}/getCalligraphyTitleByTageId`, query);

/** One page of entries. */
export const getBaikePage = (query: PageQuery & Query = {}) => get<Page<BaikeEntry>>(`${BASE}/selectPage`, query);

/** One entry. */
export const getBaikeDetail = (id: Id) => get<BaikeEntry>(`${BASE}/getDetailById`, { id });
