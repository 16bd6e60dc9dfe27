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

function hasTokenCookie(cookieHeader: string | null): boolean {
  return (cookieHeader ?? '').split(';').some((part) => part.trim().startsWith(`${TOKEN_COOKIE}=`));
}

/** A request's header by its lower-case name, whichever way the request is held (web or Node). */
export type HeaderOf = (name: string) => string | undefined;

/** True when the request says it comes from `origin` (or from no page at all, as a typed URL). */
export function fromSameSite(header: HeaderOf, requestOrigin: string): boolean {
  const site = header('sec-fetch-site');
  if (site) return site === 'same-origin' || site === 'none';
  const origin = header('origin');
  if (!origin) return true;
  return origin === requestOrigin || origin === new URL(env().SITE_URL).origin;
}

/**
 * True when the request is a write that authenticates by the login cookie alone from another site:
 * the one request this guard refuses. `requestOrigin` is asked only when it matters.
 */
export function crossSiteCookieWrite(method: string, header: HeaderOf, requestOrigin: () => string): boolean {
  if (!UNSAFE.has(method) || header(TOKEN_HEADER) || !hasTokenCookie(header('cookie') ?? null)) return false;
  return !fromSameSite(header, requestOrigin());
}

/** Refuses a cross-site write that relies on the login cookie (403). */
export function csrfGuard(): MiddlewareHandler {
  return async (c, next) => {
    if (
      crossSiteCookieWrite(
        c.req.method,
        (name) => c.req.header(name),
        () => new URL(c.req.url).origin,
      )
    ) {
      throw forbidden('跨站提交已被拒绝：请在本站页面上操作');
    }
    await next();
  };
}
