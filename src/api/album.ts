import { get } from './http.ts';
import type { Id, Page, PageQuery, Query } from './types.ts';

const BASE = '/web/api/web-font-collection';

/** An album (web-font-collection) as lists show it; details add more fields. */
export interface Album {
  id: Id;
  title: string;
  [key: string]: unknown;
}

/** One page of albums (also used for collections, 合集, through the query). */
export const getAlbumPage = (query: PageQuery & Query = {}) => get<Page<Album>>(`${BASE}/selectPage`, query);

/** One album with its fonts. */
export const getAlbumDetail = (id: Id) => get<Album>(`${BASE}/getDetailById`, { id });

/** A download address for the album's fonts as one zip. */
export const getAlbumZipUrl = (query: { id: Id } & Query) => get<string>(`${BASE}/download-font-zip-url`, query);
