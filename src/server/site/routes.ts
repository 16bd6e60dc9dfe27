import { Hono } from 'hono';
import { cachedRead, DOWNLOADS_TAG, EVERY_SECTION } from '../http/answer-cache.ts';
import { ok } from '../http/envelope.ts';
import { siteContact } from './contact.ts';
import { listFriendLinks } from './friend-links.ts';
import { siteNumbers } from './numbers.ts';

/**
 * Site-wide data, mounted at /web/api (SPEC §7 Common): GET /friendshipLinks/getFriendshipLinks and
 * GET /marketing-dict/dict-number (the library's and the community's numbers), and GET
 * /site/contact (the record numbers and contact channels from configuration).
 */
export function siteRoutes(): Hono {
  const routes = new Hono();
  routes.get('/friendshipLinks/getFriendshipLinks', cachedRead({ tags: ['site'] }), async (c) =>
    c.json(ok(await listFriendLinks())),
  );
  routes.get('/marketing-dict/dict-number', cachedRead({ tags: [EVERY_SECTION, DOWNLOADS_TAG] }), async (c) =>
    c.json(ok(await siteNumbers())),
  );
  routes.get('/site/contact', (c) => {
    c.header('Cache-Control', 'public, max-age=300');
    return c.json(ok(siteContact()));
  });
  return routes;
}
