import { Hono } from 'hono';
import { z } from 'zod';
import { type AccountResolver, requireAccount, sessionAccount, signedIn } from '../auth/current-account.ts';
import { ok } from '../http/envelope.ts';
import { pageQuery, validate } from '../http/validate.ts';
import {
  addFavoriteFont,
  allFavoriteFonts,
  createFavoriteGroup,
  deleteFavoriteFont,
  deleteFavoriteGroup,
  downloadHistoryPage,
  favoriteGroupDetail,
  renameFavoriteGroup,
} from './favorites.ts';

const groupId = z.coerce.number().int().min(0).max(2_147_483_647);

const fontBody = z.object({
  fontGNo: z.string().trim().min(1).max(100).meta({ label: '字体编号' }),
  groupId: groupId.optional().meta({ label: '收藏夹' }),
});
const groupBody = z.object({
  name: z.string().trim().min(1).max(20).meta({ label: '收藏夹名称' }),
});
const idQuery = z.object({ id: groupId.meta({ label: '收藏夹编号' }) });

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
 * Favourite fonts, favourite groups and the download history (SPEC §7 User data, Favourites),
 * mounted at /web/api. SPEC names the calls both as `collection/…` and `fontOverride/collection/…`,
 * so both prefixes answer. Every call needs a logged-in account (401 otherwise).
 */
export function favoriteRoutes(options: { account?: AccountResolver } = {}): Hono {
  const resolve = options.account ?? sessionAccount;
  const routes = new Hono();
  routes.route('/collection', collectionRoutes(resolve));
  routes.route('/fontOverride/collection', collectionRoutes(resolve));
  routes.get('/fontOverride/history', validate('query', pageQuery), async (c) =>
    c.json(ok(await downloadHistoryPage(await requireAccount(resolve, c), c.req.valid('query')))),
  );
  return routes;
}
