import type { APIRoute } from 'astro';
import { createZipLink } from '../../../server/content/group-zip.ts';

export const prerender = false;

/**
 * Sends the reader to a fresh signed link of the album's zip, so the page's download button is a
 * plain link that works without JavaScript (the API's download-font-zip-url answers the same link).
 */
export const GET: APIRoute = async ({ params }) => {
  const id = Number(params['id']);
  if (!Number.isInteger(id) || id < 1) return new Response(null, { status: 404 });
  const link = await createZipLink('album', id).catch(() => undefined);
  if (!link) return new Response(null, { status: 404 });
  return new Response(null, { status: 302, headers: { Location: link.url, 'Cache-Control': 'private, no-store' } });
};
