import { createHash } from 'node:crypto';
import idle from 'astro/runtime/client/idle.prebuilt.js';
import load from 'astro/runtime/client/load.prebuilt.js';
import media from 'astro/runtime/client/media.prebuilt.js';
import only from 'astro/runtime/client/only.prebuilt.js';
import visible from 'astro/runtime/client/visible.prebuilt.js';
import islandScript from 'astro/runtime/server/astro-island.prebuilt.js';
import { INLINE_SCRIPTS } from '../../lib/inline-scripts.ts';

// The Content-Security-Policy of every answer. Scripts run only from this origin, or inline when
// their text is one the site wrote: ours (src/lib/inline-scripts.ts) and the few Astro writes into
// pages with islands (the island element and its hydration directives), each allowed by its
// SHA-256. An injected <script> or an inline event handler therefore does not run, which matters
// because the `token` cookie is readable by scripts (SPEC §6). Styles keep 'unsafe-inline': pages
// and islands set style attributes (a cover's ratio, a preview's font) that hashes cannot name.

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The hashes of every inline script the site's pages may carry. */
export const INLINE_SCRIPT_HASHES: readonly string[] = [
  ...INLINE_SCRIPTS,
  islandScript,
  idle,
  load,
  media,
  only,
  visible,
].map(sha256);

/**
 * The policy for pages and API answers. `connectOrigins` are the other places the page's scripts
 * call: PUBLIC_API_BASE's origin when the API is elsewhere, a bucket that takes presigned uploads.
 */
export function contentSecurityPolicy(...connectOrigins: string[]): string {
  const connect = ["'self'", ...connectOrigins].filter(Boolean).join(' ');
  return [
    "default-src 'self'",
    `script-src 'self' ${INLINE_SCRIPT_HASHES.join(' ')}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data: blob:",
    `connect-src ${connect}`,
    "worker-src 'self'",
    "manifest-src 'self'",
    "media-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The policy for stored files (fonts, pictures, tool outputs): nothing in them may run, even when a
 * browser is made to open one as a document, and no page (this site's included) may frame one, as
 * X-Frame-Options: DENY says for browsers that read only that.
 */
export const FILE_POLICY =
  "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox; frame-ancestors 'none'";
