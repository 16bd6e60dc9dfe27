import type { APIRoute } from 'astro';
import { apiApp } from '../../server/app.ts';

export const prerender = false;

/** The API's OpenAPI document, answered by the Hono app like every other API path. */
export const GET: APIRoute = ({ request, clientAddress }) => apiApp().fetch(request, { clientAddress });
