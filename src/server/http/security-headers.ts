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
 * Wraps the server's listener so every answer carries SECURITY_HEADERS and its Content-Security-Policy:
 * the site's policy (http/csp.ts) for pages and the API, a sandbox for stored files.
 */
export function withSecurityHeaders(next: http.RequestListener): http.RequestListener {
  const config = env();
  const apiBase = config.PUBLIC_API_BASE ? new URL(config.PUBLIC_API_BASE).origin : '';
  const sitePolicy = contentSecurityPolicy(apiBase, uploadOrigin(config));
  const https = config.SITE_URL.startsWith('https:');
  return (req, res) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    res.setHeader('Content-Security-Policy', (req.url ?? '').startsWith('/files/') ? FILE_POLICY : sitePolicy);
    if (https) res.setHeader('Strict-Transport-Security', HSTS);
    next(req, res);
  };
}
