import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { z } from 'zod';
import { safeRedirectPath } from '../../lib/routes.ts';
import { type AuthContext, authContext } from '../auth/context.ts';
import { type AuthEnv, clientIp, requireSession, setTokenCookie } from '../auth/middleware.ts';
import { env } from '../env.ts';
import { ok, payloadTooLarge } from '../http/envelope.ts';
import { validate } from '../http/validate.ts';
import {
  finishWechatAuthorization,
  startWechatAuthorization,
  WECHAT_STATE_TTL_MS,
  wechatConfig,
} from './wechat-login.ts';

/** The cookie that ties a WeChat `state` to the browser that started the authorisation. */
export const WECHAT_STATE_COOKIE = 'wechat_state';
// Only the WeChat endpoints ever see the cookie.
const COOKIE_PATH = '/web/api/wechat';

const authorizeBody = z.object({
  mode: z.enum(['login', 'bind'], '只能是 login 或 bind').default('login').meta({ label: '用途' }),
  redirect: z.string().max(512).optional().meta({ label: '返回地址' }),
});
const callbackBody = z.object({
  code: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,256}$/, '微信授权码格式不正确')
    .optional()
    .meta({ label: '授权码' }),
  state: z.string().max(128).optional().meta({ label: 'state' }),
});

/**
 * WeChat website login, mounted at /web/api: GET /wechat/config says whether it is set up; POST
 * /wechat/authorize starts a login or a binding and answers the QR page address; POST
 * /wechat/callback, called by the /account/wechat page with WeChat's `code` and `state`, finishes it.
 */
export function wechatRoutes(ctx: AuthContext = authContext()): Hono<AuthEnv> {
  const routes = new Hono<AuthEnv>();
  routes.use(
    '/wechat/*',
    bodyLimit({
      maxSize: 16 * 1024,
      onError: () => {
        throw payloadTooLarge('请求内容过大');
      },
    }),
  );

  routes.get('/wechat/config', (c) => c.json(ok({ enabled: Boolean(wechatConfig()) })));

  routes.post('/wechat/authorize', validate('json', authorizeBody), async (c) => {
    const body = c.req.valid('json');
    const accountId = body.mode === 'bind' ? (await requireSession(c, ctx)).account.id : undefined;
    const redirect = safeRedirectPath(body.redirect) ?? (body.mode === 'bind' ? '/user/profile' : '/');
    const { url, state } = await startWechatAuthorization(ctx, { mode: body.mode, redirect, accountId });
    setCookie(c, WECHAT_STATE_COOKIE, state, {
      path: COOKIE_PATH,
      httpOnly: true,
      sameSite: 'Lax',
      secure: env().SITE_URL.startsWith('https:'),
      maxAge: WECHAT_STATE_TTL_MS / 1000,
    });
    return c.json(ok({ url }));
  });

  routes.post('/wechat/callback', validate('json', callbackBody), async (c) => {
    const body = c.req.valid('json');
    const cookieState = getCookie(c, WECHAT_STATE_COOKIE);
    deleteCookie(c, WECHAT_STATE_COOKIE, { path: COOKIE_PATH });
    const outcome = await finishWechatAuthorization(
      ctx,
      { code: body.code, state: body.state, cookieState },
      { ip: clientIp(c), userAgent: c.req.header('user-agent') },
    );
    if (outcome.mode === 'bind') return c.json(ok({ mode: 'bind', redirect: outcome.redirect }, '微信已绑定'));
    setTokenCookie(c, outcome.session);
    return c.json(ok({ mode: 'login', redirect: outcome.redirect, ...outcome.session }, '登录成功'));
  });

  return routes;
}
