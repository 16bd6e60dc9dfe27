import type { APIRoute } from 'astro';
import { buildRobots } from '../server/content/feeds.ts';

export const prerender = false;

/** robots.txt, pointing crawlers at the sitemap of the configured SITE_URL. */
export const GET: APIRoute = () =>
  new Response(buildRobots(), {
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
  });
