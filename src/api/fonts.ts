import type {
  ChildFontResource,
  DownloadLink,
  FontCoverageAnswer,
  FontCoverageRequest,
  FontResource,
  GlyphDetail,
} from '../contract/fonts.ts';
import { API_BASE, get, http } from './http.ts';
import type { Id, Page, PageQuery, Query } from './types.ts';

export type { ChildFontResource, DownloadLink, FontCoverageAnswer, FontResource, GlyphDetail };

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
  /** Characters of the text the font lacks. */
  missing: string;
  /** The WOFF2 itself (base64), when it was asked to be embedded. */
  woff2?: string;
}

/** One page of font families, filtered by the query. */
export const getFontList = (query: PageQuery & Query = {}) =>
  get<Page<FontResource>>('/web/api/fontOverride/getFontList', query);

/** One family with everything the detail page shows. */
export const getFontDetail = (query: Query) => get<FontResource>('/web/api/font/getFontDetail', query);

/** An expiring download address for a font file. */
export const getFontDownloadUrl = (query: Query) => get<DownloadLink>('/web/api/font/get-download-url', query);

/** The font dictionary of the library filters. */
export const getFontDicts = () => get<FontDicts>('/web/api/dict/font-default');

/** The address that downloads a font file directly (a link, not a call). */
export const fontDownloadHref = (id: Id) => `${API_BASE}/api/v1/web/${encodeURIComponent(String(id))}/download`;

/**
 * Asks the subset service for preview fonts covering each item's text; `embed` has each WOFF2 come
 * inside the answer, so the page draws its previews after one request instead of two.
 */
export const subsetFonts = (items: SubsetRequestItem[], { embed = false } = {}) =>
  http<SubsetResultItem[]>('/webfont/http', {
    method: 'POST',
    body: items,
    ...(embed ? { query: { embed: 'woff2' } } : {}),
  });

/** Which families have every character of a text, and what each of the others lacks (「包含这些字」). */
export const fontCoverage = (body: FontCoverageRequest, signal?: AbortSignal) =>
  http<FontCoverageAnswer>('/web/api/font/coverage', {
    method: 'POST',
    body,
    quiet: true,
    ...(signal ? { signal } : {}),
  });

/** One character of a face: whether it has it, and its outline and metrics. */
export const getGlyphDetail = (gno: string, char: string) =>
  http<GlyphDetail>('/web/api/font/glyph', { query: { gno, char }, quiet: true });
