import { Hono } from 'hono';
import { z } from 'zod';
import { type AccountResolver, requireAccount, sessionAccount, signedIn } from '../auth/current-account.ts';
import { idParam } from '../content/params.ts';
import { ok } from '../http/envelope.ts';
import { validate } from '../http/validate.ts';
import {
  addFavoriteAlbum,
  addFavoriteArticle,
  deleteFavoriteAlbum,
  deleteFavoriteArticle,
  listFavoriteAlbums,
  listFavoriteArticles,
} from './content.ts';
import {
  addFavoriteFont,
  allFavoriteFonts,
  createFavoriteGroup,
  deleteFavoriteFont,
  deleteFavoriteGroup,
  favoriteGroupDetail,
  renameFavoriteGroup,
} from './fonts.ts';

const groupId = z.coerce.number().int().min(0).max(2_147_483_647);

const fontBody = z.object({
  fontGNo: z.string().trim().min(1).max(100).meta({ label: '字体编号' }),
  groupId: groupId.optional().meta({ label: '收藏夹' }),
});
const groupBody = z.object({
  name: z.string().trim().min(1).max(20).meta({ label: '收藏夹名称' }),
});
const idQuery = z.object({ id: groupId.meta({ label: '收藏夹编号' }) });

const albumBody = z.object({ id: idParam('专辑编号') });
const articleBody = z.object({ id: idParam('文章编号') });

/** The favourite album and article calls of one account. */
function readingCalls(resolve: AccountResolver): Hono {
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

/** The favourite-font calls of one account under a base path ('/collection' or '/fontOverride/collection'). */
function collectionRoutes(resolve: AccountResolver): Hono {
  const routes = new Hono();
  routes.get('/allFont', async (c) => c.json(ok(await allFavoriteFonts(await requireAccount(resolve, c)))));
  routes.post('/addFont', signedIn(resolve), validate('json', fontBody), async (c) => {
    await addFavoriteFont(await requireAccount(resolve, c), c.req.valid('json'));
    return c.json(ok(null, '收藏成功'));
  });
  routes.post('/deleteFont', signedIn(resolve), validate('json', fontBody), async (c) => {
    await deleteFavoriteFont(await requireAccount(resolve, c), c.req.valid('json'));
    return c.json(ok(null, '已取消收藏'));
  });
  routes.post('/add', signedIn(resolve), validate('json', groupBody), async (c) =>
    c.json(ok(await createFavoriteGroup(await requireAccount(resolve, c), c.req.valid('json').name), '收藏夹已创建')),
  );
  routes.put('/update', signedIn(resolve), validate('query', idQuery), validate('json', groupBody), async (c) => {
    await renameFavoriteGroup(await requireAccount(resolve, c), c.req.valid('query').id, c.req.valid('json').name);
    return c.json(ok(null, '收藏夹已重命名'));
  });
  routes.delete('/delete', validate('query', idQuery), async (c) => {
    await deleteFavoriteGroup(await requireAccount(resolve, c), c.req.valid('query').id);
    return c.json(ok(null, '收藏夹已删除'));
  });
  routes.get('/getDetail', validate('query', idQuery), async (c) =>
    c.json(ok(await favoriteGroupDetail(await requireAccount(resolve, c), c.req.valid('query').id))),
  );
  return routes;
}

/**
 * Every favourites call (SPEC §7 User data, Favourites), mounted at /web/api: favourite fonts and
 * groups, albums and articles. SPEC names the font calls both as `collection/…` and
 * `fontOverride/collection/…`, and lists the album and article calls beside collection/allFont while the
 * front end's client calls them under /favorite, so each answers under both. Every call needs a
 * logged-in account (401 otherwise); keeping something twice keeps one row.
 */
export function favoriteRoutes(options: { account?: AccountResolver } = {}): Hono {
  const resolve = options.account ?? sessionAccount;
  const routes = new Hono();
  routes.route('/collection', collectionRoutes(resolve));
  routes.route('/collection', readingCalls(resolve));
  routes.route('/fontOverride/collection', collectionRoutes(resolve));
  routes.route('/favorite', readingCalls(resolve));
  return routes;
}
