import { Hono } from 'hono';
import { articleRoutes } from './article-routes.ts';
import { albumRoutes } from './group-routes.ts';
import { type ContentSiteRouteOptions, contentSiteRoutes } from './site-routes.ts';

/** Options of the content API; tests pass a clock, a session lookup, a captcha and a limiter. */
export interface ContentRouteOptions extends ContentSiteRouteOptions {
  now?: () => number;
}

/**
 * The content API, mounted at /web/api: articles (news, zixun, baike), albums and collections,
 * cases, promotions, columns, ads, keywords, search, home data, the message board and
 * contribution templates (SPEC §7). Favourite albums and articles answer in favorites/routes.ts.
 */
export function contentRoutes(options: ContentRouteOptions = {}): Hono {
  const routes = new Hono();
  routes.route('/', articleRoutes());
  routes.route('/', albumRoutes(options.now ? { now: options.now } : {}));
  routes.route('/', contentSiteRoutes(options));
  return routes;
}
