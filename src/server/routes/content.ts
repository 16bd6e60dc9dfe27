import { Hono } from 'hono';
import { albumRoutes } from './content-albums.ts';
import { articleRoutes } from './content-articles.ts';
import { contentFavoriteRoutes } from './content-favorites.ts';
import { type ContentSiteRouteOptions, contentSiteRoutes } from './content-site.ts';

/** Options of the content API; tests pass a clock, a session lookup, a captcha and a limiter. */
export interface ContentRouteOptions extends ContentSiteRouteOptions {
  now?: () => number;
}

/**
 * The content API, mounted at /web/api: articles (news, zixun, baike), albums and collections,
 * cases, promotions, columns, ads, keywords, search, home data, the message board and
 * contribution templates, and favourite albums and articles (SPEC §7).
 */
export function contentRoutes(options: ContentRouteOptions = {}): Hono {
  const routes = new Hono();
  routes.route('/', articleRoutes());
  routes.route('/', albumRoutes(options.now ? { now: options.now } : {}));
  routes.route('/', contentSiteRoutes(options));
  routes.route('/', contentFavoriteRoutes(options.account ? { account: options.account } : {}));
  return routes;
}
