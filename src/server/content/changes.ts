import { answerCache } from '../http/answer-cache.ts';
import { pageCache } from '../isr/page-cache.ts';
import { log } from '../log.ts';
import { markSearchIndexStale } from './search-index.ts';

/** The parts of the site whose pages a change can touch, by the URL prefix of their pages. */
export const CONTENT_SECTIONS = [
  'news',
  'zixun',
  'baike',
  'album',
  'heji',
  'case',
  'promotion',
  'video',
  'font',
  'site',
] as const;
/** A part of the site whose pages a change can touch. */
export type ContentSection = (typeof CONTENT_SECTIONS)[number];

/** Pages outside a section that show some of it: /dingzhi (字体定制) lists the latest cases. */
const ALSO_SHOWN: Partial<Record<ContentSection, readonly string[]>> = { case: ['/dingzhi'] };

/**
 * The cached paths a change in a section makes stale: its list and every detail, home, the sitemap
 * and the pages that also show the section.
 */
export function affectedPaths(section: ContentSection): (pathname: string) => boolean {
  const prefix = `/${section}`;
  const also = ALSO_SHOWN[section] ?? [];
  return (pathname) =>
    pathname === '/' ||
    pathname === '/sitemap.xml' ||
    also.includes(pathname) ||
    (section !== 'site' && (pathname === prefix || pathname.startsWith(`${prefix}/`)));
}

/**
 * Called by the services after they change content: purges every cached page that shows it (the
 * item's page, its neighbours' previous/next links, its list, home, the sitemap and, for news, the
 * RSS feed), the API answers that show it, and marks the search index for a rebuild. `'all'`
 * purges every page and answer.
 */
export async function contentChanged(section: ContentSection | 'all'): Promise<void> {
  markSearchIndexStale();
  if (section === 'all') answerCache().purgeAll();
  else answerCache().purge(section);
  const cache = pageCache();
  if (section === 'all') await cache.purgeAll();
  else await cache.purgeWhere(affectedPaths(section));
  log().debug({ section }, 'content changed, pages purged');
}
