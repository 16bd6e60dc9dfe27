import { db as configuredDb, type Db } from '../db/client.ts';
import { type FontResource, listFontFamilies } from '../fonts/catalogue.ts';
import { type ArticleListItem, type ArticleTag, listArticles, listArticleTags } from './articles.ts';
import { type CaseItem, listCases } from './cases.ts';
import { type FontGroupListItem, listFontGroups } from './groups.ts';
import { type AdItem, listAds, listPromotions, type PromotionItem } from './site-blocks.ts';

/** The ad position of the home page's banner carousel. */
export const HOME_BANNER_POSITION = 'home-banner';

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
}

/**
 * Collects the home page's sections: banners and ads, running promotions, featured fonts, the
 * latest news and consulting articles, encyclopedia picks with their tags, albums, collections and
 * cases. Every list is short; the queries run side by side.
 */
export async function getHomeData(database?: Db, now = new Date()): Promise<HomeData> {
  const db = database ?? (await configuredDb());
  const first = (size: number) => ({ current: 1, size });
  const [allAds, promotions, fonts, news, zixun, baike, baikeTags, albums, collections, cases] = await Promise.all([
    listAds(undefined, now, db),
    listPromotions(first(3), now, db),
    listFontFamilies(first(8), db),
    listArticles({ ...first(6), kind: 'news' }, db),
    listArticles({ ...first(4), kind: 'zixun' }, db),
    listArticles({ ...first(6), kind: 'baike' }, db),
    listArticleTags('baike', db),
    listFontGroups({ ...first(4), type: 'album' }, db),
    listFontGroups({ ...first(4), type: 'heji' }, db),
    listCases(first(3), db),
  ]);
  return {
    banners: allAds.filter((ad) => ad.position === HOME_BANNER_POSITION),
    ads: allAds.filter((ad) => ad.position !== HOME_BANNER_POSITION),
    promotions: promotions.records,
    fonts: fonts.records,
    news: news.records,
    zixun: zixun.records,
    baike: baike.records,
    baikeTags,
    albums: albums.records,
    collections: collections.records,
    cases: cases.records,
  };
}
