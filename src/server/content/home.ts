import type { HomeData } from '../../contract/content.ts';
import { db as configuredDb, type Db } from '../db/client.ts';
import { listFontFamilies } from '../fonts/catalogue.ts';
import { listVideos } from '../videos/videos.ts';
import { listArticles, listArticleTags } from './articles.ts';
import { listCases } from './cases.ts';
import { listFontGroups } from './groups.ts';
import { listAds, listPromotions } from './site-blocks.ts';

export type { HomeData };

/** The ad position of the home page's banner carousel. */
export const HOME_BANNER_POSITION = 'home-banner';

/**
 * Collects the home page's sections: banners and ads, running promotions, featured fonts, the
 * latest news and consulting articles, encyclopedia picks with their tags, albums, collections,
 * cases and videos. Every list is short; the queries run side by side.
 */
export async function getHomeData(database?: Db, now = new Date()): Promise<HomeData> {
  const db = database ?? (await configuredDb());
  const first = (size: number) => ({ current: 1, size });
  const [allAds, promotions, fonts, news, zixun, baike, baikeTags, albums, collections, cases, videos] =
    await Promise.all([
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
      listVideos(first(3), db),
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
    videos: videos.records,
  };
}
