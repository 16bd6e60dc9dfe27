import type { MiddlewareHandler } from 'hono';
import { TOKEN_COOKIE, TOKEN_HEADER } from '../auth/middleware.ts';
import { env } from '../env.ts';
import { forbidden } from './envelope.ts';

// The API's own defence against cross-site request forgery. A request is only dangerous when the
// browser adds a credential by itself, which is the `token` cookie; the site's client always sends
// the token in the `alliance-authenticate` header, which another site cannot set. So a write that
// authenticates by cookie alone must come from this site (Sec-Fetch-Site, else Origin), and every
// other request (an API client with curl, a script, a form without a login) is judged by the API's
// usual rules. The page framework's own origin check is off for this reason (astro.config.ts);
// src/middleware.ts applies the same-origin rule to page form posts.

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** True when the request says it comes from `origin` (or from no page at all, as a typed URL). */
export function fromSameSite(headers: Headers, requestOrigin: string): boolean {
  const site = headers.get('sec-fetch-site');
  if (site) return site === 'same-origin' || site === 'none';
  const origin = headers.get('origin');
  if (!origin) return true;
  return origin === requestOrigin || origin === new URL(env().SITE_URL).origin;
}

function hasTokenCookie(cookieHeader: string | null): boolean {
  return (cookieHeader ?? '').split(';').some((part) => part.trim().startsWith(`${TOKEN_COOKIE}=`));
}

/** Refuses a cross-site write that relies on the login cookie (403). */
export function csrfGuard(): MiddlewareHandler {
  return async (c, next) => {
    if (
      UNSAFE.has(c.req.method) &&
      !c.req.header(TOKEN_HEADER) &&
      hasTokenCookie(c.req.header('cookie') ?? null) &&
      !fromSameSite(c.req.raw.headers, new URL(c.req.url).origin)
    ) {
      throw forbidden('跨站提交已被拒绝：请在本站页面上操作');
    }
    await next();
  };
}
