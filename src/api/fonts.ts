import { API_BASE, get, http } from './http.ts';
import type { Id, Page, PageQuery, Query } from './types.ts';

/** A child font (one weight or style file) of a family (SPEC §3). */
export interface ChildFontResource {
  /** The child font's own id (a family's own resource fields leave it out). */
  id?: number;
  fontGNo: string;
  familyName: string;
  fontFamily: string;
  ttfPath: string;
  woffPath: string;
  webFontFamily: string;
  [key: string]: unknown;
}

/** A font family as lists return it: its own resource fields plus its child fonts (SPEC §3). */
export interface FontResource extends ChildFontResource {
  childFontResource: ChildFontResource[];
}

/** A font dictionary entry; `dictNumber` is compared as text (SPEC §3). */
export interface FontDict {
  dictNumber: string | number;
  dictName?: string;
  [key: string]: unknown;
}

/** The font dictionary, grouped by key (category, script, licence …). */
export type FontDicts = Record<string, FontDict[]>;

/** One item of a subset request: a font and the text it must cover (SPEC §3). */
export interface SubsetRequestItem {
  gno: string;
  text: string;
}

/** One item of a subset answer: where the subset files are. */
export interface SubsetResultItem {
  gno: string;
  familyName: string;
  woffPath: string;
  ttfPath: string;
}

/** One page of font families, filtered by the query. */
export const getFontList = (query: PageQuery & Query = {}) =>
  get<Page<FontResource>>('/web/api/fontOverride/getFontList', query);

/** One family with everything the detail page shows. */
export const getFontDetail = (query: Query) => get<FontResource>('/web/api/font/getFontDetail', query);

/** An expiring, signed download address for a font file or a family's zip. */
export interface DownloadLink {
  /** Path of the signed link, relative to the site. */
  url: string;
  /** When the link stops working (ISO-8601). */
  expiresAt: string;
  /** The name the file is saved under. */
  fileName: string;
  size: number;
}

/** An expiring download address for a font file. */
export const getFontDownloadUrl = (query: Query) => get<DownloadLink>('/web/api/font/get-download-url', query);

/** The font dictionary of the library filters. */
export const getFontDicts = () => get<FontDicts>('/web/api/dict/font-default');

/** The address that downloads a font file directly (a link, not a call). */
export const fontDownloadHref = (id: Id) => `${API_BASE}/api/v1/web/${encodeURIComponent(String(id))}/download`;

/** Asks the subset service for preview fonts covering each item's text. */
export const subsetFonts = (items: SubsetRequestItem[]) =>
  http<SubsetResultItem[]>('/webfont/http', { method: 'POST', body: items });
