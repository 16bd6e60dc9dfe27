import type http from 'node:http';

/**
 * Headers every answer carries (pages, API, assets, files, errors): no MIME sniffing, no framing by
 * other sites (clickjacking), no full address sent to other sites, and no powerful browser features
 * the site does not use. Set before any handler runs, so the handlers' own headers are added to them.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy': "frame-ancestors 'none'",
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()',
};

/** Wraps the server's listener so every answer carries SECURITY_HEADERS. */
export function withSecurityHeaders(next: http.RequestListener): http.RequestListener {
  return (req, res) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    next(req, res);
  };
}
