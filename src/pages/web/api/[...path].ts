import type { APIRoute } from 'astro';
import { apiApp } from '../../../server/app.ts';

export const prerender = false;

/**
 * Hands every request under this prefix to the Hono API, with the caller's address (the socket's,
 * or X-Forwarded-For only where Astro trusts it), which the per-IP rate limits key on.
 */
export const ALL: APIRoute = ({ request, clientAddress }) => apiApp().fetch(request, { clientAddress });
