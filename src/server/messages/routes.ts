import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { NOTIFICATION_TYPES } from '../../contract/messages.ts';
import { type AccountResolver, requireAccount, sessionAccount } from '../auth/current-account.ts';
import { toPage } from '../content/paging.ts';
import { listFavoriteArticles } from '../favorites/content.ts';
import { badRequest, notFound, ok } from '../http/envelope.ts';
import { formOrJsonFields, listChoice, pageQuery, validate } from '../http/validate.ts';
import { favoriteSummary } from '../user-centre/overview.ts';
import {
  listNotifications,
  markAllRead,
  notificationSummary,
  readNotification,
  setEmailCopies,
} from './notifications.ts';

const listQuery = pageQuery.extend({
  type: listChoice(NOTIFICATION_TYPES, '消息类型'),
  unread: listChoice(['true', 'false', '1', '0'], '只看未读')
    .transform((value) => value === 'true' || value === '1')
    .meta({ label: '只看未读' }),
});
const idParam = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647).meta({ label: '消息编号' }) });
const readAllBody = z.object({ type: listChoice(NOTIFICATION_TYPES, '消息类型') });
const settingsBody = z.object({
  emailCopies: z
    .union([z.boolean(), z.enum(['true', 'false', 'on', 'off'])])
    .transform((value) => value === true || value === 'true' || value === 'on')
    .meta({ label: '邮件提醒' }),
});

/** A form posted by a page without script wants to go back to a page, not to read JSON. */
function wantsPage(c: Context): boolean {
  return (c.req.header('accept') ?? '').includes('text/html');
}

/**
 * The message centre and the user's personal data (SPEC §7 User data), mounted at /api/v1:
 * web/notifyList, web/notify (the badge), web/notify/{id}/read, web/notify/read-all,
 * web/notify/settings, news/my-news and web/personal/favorite/data. Every call needs a login, and
 * every message is looked up together with its owner, so one user never reaches another's.
 */
export function messageRoutes(options: { account?: AccountResolver } = {}): Hono {
  const resolve = options.account ?? sessionAccount;
  const routes = new Hono();

  routes.get('/web/notifyList', validate('query', listQuery), async (c) =>
    c.json(ok(await listNotifications(await requireAccount(resolve, c), c.req.valid('query')))),
  );
  routes.get('/web/notify', async (c) => c.json(ok(await notificationSummary(await requireAccount(resolve, c)))));
  // SPEC names a GET; POST answers the same for clients that keep GETs free of effects.
  for (const method of ['get', 'post'] as const) {
    routes[method]('/web/notify/:id/read', validate('param', idParam), async (c) =>
      c.json(ok(await readNotification(await requireAccount(resolve, c), c.req.valid('param').id), '已读')),
    );
  }
  routes.post('/web/notify/read-all', async (c) => {
    const accountId = await requireAccount(resolve, c);
    const parsed = readAllBody.safeParse(await formOrJsonFields(c));
    if (!parsed.success) throw badRequest('消息类型不正确');
    const marked = await markAllRead(accountId, parsed.data.type);
    if (wantsPage(c)) return c.redirect(`/user/message${parsed.data.type ? `?type=${parsed.data.type}` : ''}`, 303);
    return c.json(ok({ marked }, marked > 0 ? `已将 ${marked} 条消息标为已读` : '没有未读消息'));
  });
  routes.post('/web/notify/settings', async (c) => {
    const accountId = await requireAccount(resolve, c);
    const parsed = settingsBody.safeParse(await formOrJsonFields(c));
    if (!parsed.success) throw badRequest('邮件提醒只能打开或关闭');
    if (!(await setEmailCopies(accountId, parsed.data.emailCopies))) {
      throw badRequest('请先在“个人资料”里绑定邮箱，再打开邮件提醒');
    }
    if (wantsPage(c)) return c.redirect('/user/message', 303);
    return c.json(
      ok({ emailCopies: parsed.data.emailCopies }, parsed.data.emailCopies ? '已打开邮件提醒' : '已关闭邮件提醒'),
    );
  });

  // "My news" is the articles the user keeps, newest kept first (the site has no comments).
  routes.get('/news/my-news', validate('query', pageQuery), async (c) => {
    const query = c.req.valid('query');
    const all = await listFavoriteArticles(await requireAccount(resolve, c));
    const start = (query.current - 1) * query.size;
    return c.json(ok(toPage(all.slice(start, start + query.size), all.length, query)));
  });
  routes.get('/web/personal/favorite/data', async (c) =>
    c.json(ok(await favoriteSummary(await requireAccount(resolve, c)))),
  );
  // SPEC lists this call without saying what it is for; favourites need no token of their own,
  // so it answers a plain 404 rather than a made-up token.
  routes.get('/web/personal/favorite/token', async (c) => {
    await requireAccount(resolve, c);
    throw notFound('收藏令牌接口未启用：收藏数据请用 /api/v1/web/personal/favorite/data');
  });
  return routes;
}
