import type { APIRoute } from 'astro';
import { apiApp } from '../../server/app.ts';

export const prerender = false;

/** Hands every request under this prefix to the Hono API. */
export const ALL: APIRoute = ({ request, clientAddress }) => apiApp().fetch(request, { clientAddress });
