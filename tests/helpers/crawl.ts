import type { APIRequestContext } from '@playwright/test';

/** A page the crawl reached, and the page that linked it. */
export interface CrawledPage {
  path: string;
  status: number;
  html: string | undefined;
  linkedFrom: string | undefined;
}

/**
 * Pages no link leads to, where a crawl starts besides home: the search form's results, the page the
 * service worker shows offline, and the login page that redirects and links to the dialog send people to.
 */
export const UNLINKED_PAGES = ['/search?q=%E9%BB%91%E4%BD%93', '/offline', '/account/admission'];

/** Where a crawl starts and which links it follows (by default: from home, anywhere on the site). */
export interface CrawlScope {
  starts?: readonly string[];
  within?: RegExp;
}

/**
 * Every page a visitor can reach from home by following the site's own links in the server-rendered
 * HTML (what a reader without scripts and a search engine see). API, file and web-font links are left
 * to their own suites. `scope` starts elsewhere and keeps to some paths (the signed-in pages).
 */
export async function crawlSite(
  request: APIRequestContext,
  { starts = ['/', ...UNLINKED_PAGES], within = /^\// }: CrawlScope = {},
): Promise<CrawledPage[]> {
  const seen = new Set<string>(starts);
  const queue: Array<{ path: string; from: string | undefined }> = starts.map((path) => ({ path, from: undefined }));
  const pages: CrawledPage[] = [];
  while (queue.length > 0) {
    const { path, from } = queue.shift() as { path: string; from: string | undefined };
    const response = await request.get(path, { maxRedirects: 0 });
    const isHtml = (response.headers()['content-type'] ?? '').includes('text/html');
    const html = response.status() === 200 && isHtml ? await response.text() : undefined;
    pages.push({ path, status: response.status(), html, linkedFrom: from });
    if (!html) continue;
    for (const match of html.matchAll(/<a\s[^>]*href="([^"]+)"/g)) {
      const href = (match[1] ?? '').replace(/&amp;/g, '&');
      if (!href.startsWith('/') || href.startsWith('//')) continue;
      const url = new URL(href, 'http://site');
      if (/^\/(files|webfont|tools\/api|web\/api|api\/)/.test(url.pathname)) continue;
      const target = url.pathname + url.search;
      if (seen.has(target) || !within.test(target)) continue;
      seen.add(target);
      queue.push({ path: target, from: path });
    }
  }
  return pages;
}

/**
 * The signed-in part of the site, for an editor's session: the user centre, the editors' pages and the
 * custom-font form, each reached from its own overview.
 */
export const SIGNED_IN_SCOPE: Required<CrawlScope> = {
  starts: ['/user/overview', '/editor', '/dingzhi/apply'],
  within: /^\/(user|editor|dingzhi\/apply)(\/|\?|$)/,
};

/** One path per route: ids, record uids and slugs folded, so /news/3 and /news/7 count once. */
export function routeOf(path: string): string {
  const url = new URL(path, 'http://site');
  const pathname = url.pathname
    .replace(/\/(\d+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?=\/|$)/g, '/:id')
    .replace(/^\/font\/[^/]+$/, '/font/:gno');
  return `${pathname}${url.search ? '?' : ''}`;
}

/** The first page of each route among the crawled HTML pages. */
export function onePagePerRoute(pages: readonly CrawledPage[]): string[] {
  const routes = new Set<string>();
  const picked: string[] = [];
  for (const page of pages) {
    if (!page.html || routes.has(routeOf(page.path))) continue;
    routes.add(routeOf(page.path));
    picked.push(page.path);
  }
  return picked;
}
