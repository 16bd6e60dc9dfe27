import { defineMiddleware } from 'astro:middleware';
import { ERROR_STATUS_HEADER, errorStatus } from './lib/route-error.ts';
import { isNonPagePath, loginRedirectUrl, requiresLogin, stripHtmlSuffix, TOKEN_COOKIE } from './lib/routes.ts';
import { fromSameSite } from './server/http/csrf.ts';
import { servePageFromCache } from './server/isr/isr.ts';

/**
 * Page rules that run before every on-demand page:
 * - SPEC §2's login guard: a path containing /user without a `token` cookie is sent to
 *   `/?redirect=<path>` (302), so a private page is never rendered for a visitor;
 * - the `.html` suffix: `/x.html` renders `/x` (a rewrite, same address in the bar). Prerendered
 *   pages also exist as `x.html` files, which the server sends before this code runs;
 * - SPEC §8's route errors: an error whose status is 404 (a malformed id, say) shows the 404 page
 *   with status 404; other errors show the error page with their own status (default 500).
 * API prefixes and assets pass through untouched.
 */
export const onRequest = defineMiddleware(async (context, next) => {
  const { pathname, search } = context.url;
  if (isNonPagePath(pathname)) return next();
  // A page form (the editor's, say) is only taken from this site's own pages.
  if (context.request.method !== 'GET' && context.request.method !== 'HEAD') {
    if (!fromSameSite((name) => context.request.headers.get(name) ?? undefined, context.url.origin)) {
      return new Response('跨站提交已被拒绝：请在本站页面上操作', {
        status: 403,
        headers: { 'Content-Type': 'text/plain; charset=utf-8' },
      });
    }
  }

  if (context.routePattern === '/500') {
    // 500.astro names the status it stands for; Astro would send every error page as 500.
    const response = await next();
    const status = Number(response.headers.get(ERROR_STATUS_HEADER));
    if (!status || status === response.status) return response;
    const headers = new Headers(response.headers);
    headers.delete(ERROR_STATUS_HEADER);
    return new Response(response.body, { status, headers });
  }

  const page = stripHtmlSuffix(pathname);
  const path = page ?? pathname;
  // Prerendered pages have no request cookies (and never live under /user).
  if (!context.isPrerendered && requiresLogin(path) && !context.cookies.get(TOKEN_COOKIE)?.value) {
    return context.redirect(loginRedirectUrl(path + search), 302);
  }
  // `page` always starts with exactly one slash, so the rewrite stays on this origin. In
  // development this also serves `/help.html`, which production sends as a static file.
  if (page !== null) return context.rewrite(`${page}${search}`);
  if (context.isPrerendered) return next();

  try {
    // Content pages (news, albums, baike …) come from the page cache; see src/server/content/isr.ts.
    return await servePageFromCache(context.url, context.request, next);
  } catch (error) {
    // An empty 404 makes Astro answer with the 404 page.
    if (errorStatus(error) === 404) return new Response(null, { status: 404 });
    throw error;
  }
});
