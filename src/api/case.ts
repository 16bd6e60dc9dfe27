import { get } from './http.ts';
import type { Id, Page, PageQuery, Query } from './types.ts';

/** A case of library fonts in use. */
export interface FontCase {
  id: Id;
  title: string;
  [key: string]: unknown;
}

/** One page of cases. */
export const getCasePage = (query: PageQuery & Query = {}) =>
  get<Page<FontCase>>('/web/api/web-font-case/selectPage', query);
