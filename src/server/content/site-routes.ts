import { Hono } from 'hono';
import { z } from 'zod';
import { authContext } from '../auth/context.ts';
import { type AccountResolver, clientIp, sessionAccount } from '../auth/current-account.ts';
import { createSharedLimiter, type SharedLimiter } from '../auth/shared-limiter.ts';
import { cachedRead, EVERY_SECTION } from '../http/answer-cache.ts';
import { notFound, ok, unauthorized } from '../http/envelope.ts';
import { contactAddress, listChoice, pageQuery, validate } from '../http/validate.ts';
import { listCases } from './cases.ts';
import { myBoardMessages, saveBoardMessage } from './contact-board.ts';
import { getHomeData } from './home.ts';
import { idParam, optionalText } from './params.ts';
import { isSearchIndexCurrent, searchContent, suggestKeywords } from './search.ts';
import { SEARCH_TYPES } from './search-index.ts';
import { getPromotion, listAds, listColumns, listContributeTemplates, listPromotions } from './site-blocks.ts';

const searchQuery = pageQuery.extend({
  keyword: z.string().trim().min(1, '请输入要搜索的内容').max(50).meta({ label: '关键词' }),
  type: listChoice(SEARCH_TYPES, '搜索范围'),
});
const suggestQuery = z.object({ keyword: optionalText(50, '关键词') });
const typeQuery = z.object({ type: z.string().trim().min(1).max(32).meta({ label: '类型' }) });
const adQuery = z.object({ position: optionalText(32, '广告位') });
const promotionQuery = z.object({ id: idParam('活动编号') });

/** The contact form (SPEC §5 rules for the contact field). */
export const boardMessageBody = z.object({
  name: z.string().trim().min(1, '请填写称呼').max(30).meta({ label: '称呼' }),
  contact: contactAddress,
  content: z
    .string()
    .trim()
    .min(5, '留言内容至少 5 个字')
    .max(1000, '留言内容最多 1000 个字')
    .meta({ label: '留言内容' }),
  captchaVerification: z.string().max(512).optional().meta({ label: '滑块验证' }),
});

/** What the site routes can be given; tests replace the captcha, the limiter and the session lookup. */
export interface ContentSiteRouteOptions {
  account?: AccountResolver;
  /** The captcha check of the contact form; null turns it off (only tests do). */
  consumeCaptcha?: ((verification: string | undefined) => Promise<boolean>) | null;
  messageLimiter?: SharedLimiter;
}

/**
 * Home, search and site-wide content, mounted at /web/api (SPEC §7 Cases, Common, Home):
 * web-font-case, web-promotion, web-column, fontOverride/adv, keyword, web-findAll,
 * fontOverride/home, messageBoard/save and contributeTemplate.
 */
export function contentSiteRoutes(options: ContentSiteRouteOptions = {}): Hono {
  const resolveAccount = options.account ?? sessionAccount;
  // Five messages per IP in ten minutes is plenty for people and little for a script.
  const limiter =
    options.messageLimiter ??
    createSharedLimiter({ name: 'boardMessages', limit: 5, windowMs: 10 * 60_000, clock: () => Date.now() });
  const consumeCaptcha =
    options.consumeCaptcha === null
      ? undefined
      : (options.consumeCaptcha ?? ((value: string | undefined) => authContext().captcha.consumeVerification(value)));
  const routes = new Hono();

  routes.get('/web-font-case/selectPage', cachedRead({ tags: ['case'] }), validate('query', pageQuery), async (c) =>
    c.json(ok(await listCases(c.req.valid('query')))),
  );
  routes.get(
    '/web-promotion/selectPage',
    cachedRead({ tags: ['promotion'] }),
    validate('query', pageQuery),
    async (c) => c.json(ok(await listPromotions(c.req.valid('query')))),
  );
  routes.get(
    '/web-promotion/getDetail',
    cachedRead({ tags: ['promotion'] }),
    validate('query', promotionQuery),
    async (c) => {
      const promotion = await getPromotion(c.req.valid('query').id);
      if (!promotion) throw notFound('活动不存在或已结束');
      return c.json(ok(promotion));
    },
  );
  routes.get('/web-column/getColumnByType', cachedRead({ tags: ['site'] }), validate('query', typeQuery), async (c) =>
    c.json(ok(await listColumns(c.req.valid('query').type))),
  );
  routes.get('/fontOverride/adv/getData', cachedRead({ tags: ['site'] }), validate('query', adQuery), async (c) =>
    c.json(ok(await listAds(c.req.valid('query').position))),
  );
  routes.get('/keyword/getKeyword', cachedRead({ tags: [EVERY_SECTION] }), validate('query', suggestQuery), async (c) =>
    c.json(ok(await suggestKeywords(c.req.valid('query').keyword))),
  );
  routes.get(
    '/web-findAll/getByParameter',
    cachedRead({ tags: [EVERY_SECTION] }),
    validate('query', searchQuery),
    async (c) => {
      const page = await searchContent(c.req.valid('query'));
      // An answer from the previous index, while it is rebuilt, is not kept: the next search finds the change.
      if (!isSearchIndexCurrent()) c.header('Cache-Control', 'no-store');
      return c.json(ok(page));
    },
  );
  routes.get('/fontOverride/home/getData', cachedRead({ tags: [EVERY_SECTION] }), async (c) =>
    c.json(ok(await getHomeData())),
  );
  routes.get(
    '/contributeTemplate/queryByType',
    cachedRead({ tags: ['site'] }),
    validate('query', typeQuery),
    async (c) => {
      const [template] = await listContributeTemplates(c.req.valid('query').type);
      if (!template) throw notFound('没有这种类型的模板');
      return c.json(ok(template));
    },
  );
  routes.post('/messageBoard/save', validate('json', boardMessageBody), async (c) => {
    const accountId = await resolveAccount(c).catch(() => null);
    // A signed-in writer passed a captcha to get the account and is known by it; the per-IP limit
    // still applies.
    const saved = await saveBoardMessage(
      c.req.valid('json'),
      { ip: clientIp(c), accountId },
      { consumeCaptcha: accountId === null ? consumeCaptcha : undefined, limiter },
    );
    return c.json(ok(saved, '留言已收到，我们会尽快通过你留下的联系方式回复'));
  });
  routes.get('/messageBoard/mine', validate('query', pageQuery), async (c) => {
    const accountId = await resolveAccount(c);
    if (accountId === null) throw unauthorized('请先登录');
    return c.json(ok(await myBoardMessages(accountId, c.req.valid('query'))));
  });
  return routes;
}
