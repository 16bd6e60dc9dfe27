import type http from 'node:http';
import { env } from '../env.ts';
import { uploadOrigin } from '../storage/index.ts';
import { contentSecurityPolicy, FILE_POLICY } from './csp.ts';

/**
 * Headers every answer carries (pages, API, assets, files, errors): no MIME sniffing, no framing by
 * other sites (clickjacking), no full address sent to other sites, and no powerful browser features
 * the site does not use. Set before any handler runs, so the handlers' own headers are added to them.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()',
};

/** HSTS, only when the site is served over https (a browser would otherwise pin a scheme it cannot reach). */
const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Every security header of an answer to `target` (a request's path and query): SECURITY_HEADERS, the
 * site's policy (http/csp.ts) for pages and the API or a sandbox for stored files, and HSTS on https.
 */
export function securityHeadersFor(): (target: string) => Record<string, string> {
  const config = env();
  const apiBase = config.PUBLIC_API_BASE ? new URL(config.PUBLIC_API_BASE).origin : '';
  const sitePolicy = contentSecurityPolicy(apiBase, uploadOrigin(config));
  const https = config.SITE_URL.startsWith('https:');
  return (target) => ({
    ...SECURITY_HEADERS,
    'Content-Security-Policy': target.startsWith('/files/') ? FILE_POLICY : sitePolicy,
    ...(https ? { 'Strict-Transport-Security': HSTS } : {}),
  });
}

/**
 * Wraps the server's listener so every answer carries SECURITY_HEADERS and its Content-Security-Policy:
 * the site's policy (http/csp.ts) for pages and the API, a sandbox for stored files.
 */
export function withSecurityHeaders(next: http.RequestListener): http.RequestListener {
  const headersFor = securityHeadersFor();
  return (req, res) => {
    for (const [name, value] of Object.entries(headersFor(req.url ?? ''))) res.setHeader(name, value);
    next(req, res);
  };
}
