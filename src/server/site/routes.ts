import { Hono } from 'hono';
import { ok } from '../http/envelope.ts';
import { listFriendLinks } from './friend-links.ts';

/** Site-wide data, mounted at /web/api: GET /friendshipLinks/getFriendshipLinks (SPEC §7 Common). */
export function siteRoutes(): Hono {
  const routes = new Hono();
  routes.get('/friendshipLinks/getFriendshipLinks', async (c) => c.json(ok(await listFriendLinks())));
  return routes;
}
