import Cookies from 'js-cookie';
import { atom } from 'nanostores';
import { TOKEN_COOKIE } from '../lib/routes.ts';

// The session token and its cookie, on their own so that the API client can read and clear the
// token without importing the user store (which itself calls the API). src/stores/user.ts clears
// the user's data whenever the token goes.

export { TOKEN_COOKIE };

/** The session token; empty for visitors. */
export const $token = atom('');

function cookieDomain(): string | undefined {
  return import.meta.env?.['PUBLIC_COOKIE_DOMAIN'] || undefined;
}

function cookieAttributes(): Cookies.CookieAttributes {
  const secure = globalThis.location?.protocol === 'https:';
  const domain = cookieDomain();
  return { path: '/', sameSite: 'Lax', ...(secure ? { secure } : {}), ...(domain ? { domain } : {}) };
}

/** The token cookie's value, or '' when there is none (or during server rendering). */
export function readTokenCookie(): string {
  if (typeof document === 'undefined') return '';
  return Cookies.get(TOKEN_COOKIE) ?? '';
}

/**
 * Stores the token in the store and the cookie `token` (path /, the configured domain if any,
 * max-age `expired` seconds). An empty token removes the cookie.
 */
export function setToken(token: string, expired?: number): void {
  $token.set(token);
  if (typeof document === 'undefined') return;
  if (!token) {
    Cookies.remove(TOKEN_COOKIE, cookieAttributes());
    return;
  }
  const lifetime = expired !== undefined && Number.isFinite(expired) && expired > 0 ? Math.floor(expired) : undefined;
  // js-cookie writes unknown attributes as they are, so max-age reaches the browser unchanged.
  Cookies.set(TOKEN_COOKIE, token, {
    ...cookieAttributes(),
    ...(lifetime !== undefined ? { 'max-age': String(lifetime) } : {}),
  });
}
