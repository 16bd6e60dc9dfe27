import type { APIRoute } from 'astro';
import { apiApp } from '../server/app.ts';

export const prerender = false;

/** Health probes are answered by the Hono API. */
export const GET: APIRoute = ({ request }) => apiApp().fetch(request);
