// URL rules shared by the middleware (server) and the navigation guard (browser).

/** The cookie that carries the session token (SPEC §4). */
export const TOKEN_COOKIE = 'token';

/**
 * Path prefixes that are not pages: the API prefixes mounted from src/server/app.ts, the file
 * endpoint, the probes and Astro's asset folders. The page rules below (.html suffix, login guard)
 * never touch them.
 */
export const NON_PAGE_PREFIXES = [
  '/web/api',
  '/api/v1',
  '/captcha',
  '/webfont',
  '/tools/api',
  '/files',
  '/healthz',
  '/readyz',
  '/api/openapi.json',
  '/_astro',
  '/_image',
  '/_server-islands',
] as const;

/** True when `pathname` belongs to the API or to static assets rather than to a page. */
export function isNonPagePath(pathname: string): boolean {
  return NON_PAGE_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

/**
 * Collapses leading slashes and backslashes to one slash, so that a path such as `//evil.com` can
 * never turn into a protocol-relative address when it is reused in a Location header or a link.
 */
export function normalizeLeadingSlashes(pathname: string): string {
  return pathname.replace(/^[/\\]+/, '/');
}

/**
 * The page path a `.html` address stands for (`/help.html` → `/help`, `/index.html` → `/`,
 * `/news/index.html` → `/news`), or null when the path has no `.html` suffix.
 */
export function stripHtmlSuffix(pathname: string): string | null {
  if (!pathname.endsWith('.html')) return null;
  const bare = normalizeLeadingSlashes(pathname.slice(0, -'.html'.length));
  if (bare === '/' || bare === '') return null;
  if (bare === '/index') return '/';
  if (bare.endsWith('/index')) return bare.slice(0, -'/index'.length);
  return bare;
}

/** /user pages that visitors may open. */
const VISITOR_PAGES = new Set(['/user/compare']);

/**
 * True when a page path needs a login: SPEC §2 guards every path containing `/user`. Asset-like
 * paths (a last segment with a file extension) and non-page prefixes are left alone.
 */
export function requiresLogin(pathname: string): boolean {
  if (isNonPagePath(pathname) || !pathname.includes('/user')) return false;
  // The compare list lives in the browser, so comparing needs no account (SPEC §2's rule for /user
  // paths would send a visitor away from their own list).
  if (VISITOR_PAGES.has(pathname.replace(/\.html$/, ''))) return false;
  const last = pathname.slice(pathname.lastIndexOf('/') + 1);
  return !/\.[a-z0-9]+$/i.test(last) || last.endsWith('.html');
}

/** True when a path would be read by a browser as another host (`//host`, `/\host`). */
function leavesSite(path: string): boolean {
  return /^[/\\]{2}/.test(path);
}

/**
 * Returns `value` when it is a path on this site, else null. Used for the `redirect` parameter, which
 * comes from the address bar and must never send a visitor to another site; the server (WeChat
 * callback, login guard) and the browser (after login) apply this one rule.
 *
 * The rule is judged on the path as a browser resolves it, not as it was written: URL parsing drops
 * dot segments (`/./`, `/../`, `/%2e/`) and turns backslashes into slashes, so `/.//evil.example`
 * resolves to `//evil.example`, another host once written into a Location header or `location.href`.
 * The normalised path must start with exactly one slash, and normalising it again must change
 * nothing (the answer is a fixed point, so no later parse can turn it into something else).
 */
export function safeRedirectPath(value: string | null | undefined): string | null {
  if (!value?.startsWith('/') || leavesSite(value)) return null;
  // Control characters and whitespace are stripped by URL parsers in surprising places.
  if (/\s/.test(value) || [...value].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)) {
    return null;
  }
  const normalised = resolvedPath(value);
  if (normalised === null || !normalised.startsWith('/') || leavesSite(normalised)) return null;
  return resolvedPath(normalised) === normalised ? normalised : null;
}

/** The path, query and fragment a browser resolves `value` to on this site, or null when it leaves it. */
function resolvedPath(value: string): string | null {
  const base = 'http://site.invalid';
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return null;
  }
  if (url.origin !== base) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The home address that opens the login modal and returns to `path` afterwards. */
export function loginRedirectUrl(path: string): string {
  const target = safeRedirectPath(normalizeLeadingSlashes(path));
  return target && target !== '/' ? `/?redirect=${encodeURIComponent(target)}` : '/';
}

/** The shape a route id must have: numeric record ids, or slugs such as a font's gno. */
export type RouteIdKind = 'numeric' | 'slug';

/** True when a route parameter is a well-formed id; a malformed one answers 404 (SPEC §8). */
export function isValidRouteId(id: string | undefined, kind: RouteIdKind): id is string {
  if (!id) return false;
  return kind === 'numeric' ? /^[1-9]\d{0,17}$/.test(id) : /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/.test(id);
}
