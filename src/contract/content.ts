// Shapes of the content API's answers (articles, albums and collections, cases, home), shared by the
// server (src/server/content) and the browser client (src/api/home.ts).

import type { FontResource } from './fonts.ts';
import type { VideoListItem } from './videos.ts';

/** The three article kinds: news (wenzhang), calligraphy encyclopedia (baike) and industry news (zixun). */
export const ARTICLE_KINDS = ['news', 'baike', 'zixun'] as const;
/** One of the three article kinds. */
export type ArticleKind = (typeof ARTICLE_KINDS)[number];

/** Albums (专辑) and collections (heji 合集) share one shape and one API, told apart by type. */
export const FONT_GROUP_TYPES = ['album', 'heji'] as const;
/** Album or collection. */
export type FontGroupType = (typeof FONT_GROUP_TYPES)[number];

/** A family named in a list entry. */
export interface FontGroupFont {
  fontGNo: string;
  familyName: string;
}

/** An album or collection as lists show it. */
export interface FontGroupListItem {
  id: number;
  type: FontGroupType;
  title: string;
  summary: string;
  cover: string | null;
  thumb: string | null;
  fontCount: number;
  /** The first few families, for the card. */
  fonts: FontGroupFont[];
  publishedAt: string | null;
}

/** An article as lists show it. */
export interface ArticleListItem {
  id: number;
  kind: ArticleKind;
  title: string;
  summary: string;
  /** The 1200×630 cover and its 600×315 thumbnail. */
  cover: string | null;
  thumb: string | null;
  author: string | null;
  source: string | null;
  tagId: number | null;
  tagName: string | null;
  publishedAt: string | null;
  views: number;
  hasVideo: boolean;
}

/** An article tag (baike: 楷书 …; news and zixun: their category) with how many published articles it has. */
export interface ArticleTag {
  id: number;
  name: string;
  count: number;
}

/** A case of a library font in use; the case page shows each one whole, so the body comes along. */
export interface CaseItem {
  id: number;
  title: string;
  client: string | null;
  summary: string;
  bodyHtml: string;
  cover: string | null;
  thumb: string | null;
  /** The family the case used, or null when it is no longer in the library. */
  font: { fontGNo: string; familyName: string; webFontFamily: string } | null;
  publishedAt: string | null;
}

/** A promotion as lists show it. */
export interface PromotionItem {
  id: number;
  title: string;
  summary: string;
  cover: string | null;
  thumb: string | null;
  linkUrl: string | null;
  startsAt: string | null;
  endsAt: string | null;
}

/** An advertisement as the page places it. */
export interface AdItem {
  id: number;
  position: string;
  title: string;
  image: string | null;
  thumb: string | null;
  linkUrl: string | null;
}

/** Everything the home page shows, in one answer (fontOverride/home/getData). */
export interface HomeData {
  banners: AdItem[];
  /** Running ads of the other positions. */
  ads: AdItem[];
  promotions: PromotionItem[];
  /** The most downloaded families. */
  fonts: FontResource[];
  news: ArticleListItem[];
  zixun: ArticleListItem[];
  baike: ArticleListItem[];
  baikeTags: ArticleTag[];
  albums: FontGroupListItem[];
  collections: FontGroupListItem[];
  cases: CaseItem[];
  /** The latest videos. */
  videos: VideoListItem[];
}
