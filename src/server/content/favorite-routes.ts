import { Hono } from 'hono';
import { z } from 'zod';
import { type AccountResolver, requireAccount, sessionAccount, signedIn } from '../auth/current-account.ts';
import { ok } from '../http/envelope.ts';
import { validate } from '../http/validate.ts';
import {
  addFavoriteAlbum,
  addFavoriteArticle,
  deleteFavoriteAlbum,
  deleteFavoriteArticle,
  listFavoriteAlbums,
  listFavoriteArticles,
} from './favorites.ts';
import { idParam } from './params.ts';

const albumBody = z.object({ id: idParam('专辑编号') });
const articleBody = z.object({ id: idParam('文章编号') });

function favoriteCalls(resolve: AccountResolver): Hono {
  const routes = new Hono();
  routes.get('/getCollByUser', async (c) => c.json(ok(await listFavoriteAlbums(await requireAccount(resolve, c)))));
  routes.get('/getArticleByUser', async (c) =>
    c.json(ok(await listFavoriteArticles(await requireAccount(resolve, c)))),
  );
  routes.post('/addColl', signedIn(resolve), validate('json', albumBody), async (c) => {
    await addFavoriteAlbum(await requireAccount(resolve, c), c.req.valid('json').id);
    return c.json(ok(null, '收藏成功'));
  });
  routes.post('/deleteColl', signedIn(resolve), validate('json', albumBody), async (c) => {
    await deleteFavoriteAlbum(await requireAccount(resolve, c), c.req.valid('json').id);
    return c.json(ok(null, '已取消收藏'));
  });
  routes.post('/addArt', signedIn(resolve), validate('json', articleBody), async (c) => {
    await addFavoriteArticle(await requireAccount(resolve, c), c.req.valid('json').id);
    return c.json(ok(null, '收藏成功'));
  });
  routes.post('/deleteArt', signedIn(resolve), validate('json', articleBody), async (c) => {
    await deleteFavoriteArticle(await requireAccount(resolve, c), c.req.valid('json').id);
    return c.json(ok(null, '已取消收藏'));
  });
  return routes;
}

/**
 * Favourite albums and articles (SPEC §7 Favourites), mounted at /web/api. SPEC lists them beside
 * collection/allFont, so they answer under /collection; the front end's client calls /favorite, which
 * answers too. Every call needs a logged-in account (401 otherwise); adding twice keeps one row.
 */
export function contentFavoriteRoutes(options: { account?: AccountResolver } = {}): Hono {
  const resolve = options.account ?? sessionAccount;
  const routes = new Hono();
  routes.route('/collection', favoriteCalls(resolve));
  routes.route('/favorite', favoriteCalls(resolve));
  return routes;
}
