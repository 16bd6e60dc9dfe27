import type { APIRoute } from 'astro';
import { buildSitemap } from '../server/content/feeds.ts';

export const prerender = false;

/** The sitemap; served through the page cache and purged whenever content changes. */
export const GET: APIRoute = async () =>
  new Response(await buildSitemap(), { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
