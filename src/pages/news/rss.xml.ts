import type { APIRoute } from 'astro';
import { buildNewsFeed } from '../../server/content/feeds.ts';

export const prerender = false;

/** The news RSS feed; served through the page cache and purged when news changes. */
export const GET: APIRoute = async () =>
  new Response(await buildNewsFeed(), { headers: { 'Content-Type': 'application/rss+xml; charset=utf-8' } });
