import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { type AuthContext, authContext } from '../auth/context.ts';
import {
  type AuthEnv,
  authenticate,
  clearTokenCookie,
  clientIp,
  readToken,
  setTokenCookie,
} from '../auth/middleware.ts';
import { badRequest, ok, payloadTooLarge } from '../http/envelope.ts';
import { validate } from '../http/validate.ts';
import {
  loginWithPassword,
  loginWithSmsCode,
  logout,
  register,
  resetPassword,
  sendCode,
  verifyResetCode,
} from './account.ts';
import { AVATAR_MAX_BYTES } from './avatar.ts';
import type { RequestMeta } from './common.ts';
import { bindAddress, changePassword, loadUserInfo, unbind, updateProfile } from './profile.ts';
import {
  bindBody,
  loginBody,
  registerEmailBody,
  registerPhoneBody,
  resetCodeBody,
  resetPasswordBody,
  sendCodeBody,
  smsLoginBody,
  toAddress,
  unbindBody,
  updatePasswordBody,
} from './schemas.ts';

function meta(c: Context): RequestMeta {
  return { ip: clientIp(c), userAgent: c.req.header('user-agent') };
}

// Room for the multipart framing and a nickname around the largest avatar.
const PROFILE_BODY_LIMIT = AVATAR_MAX_BYTES + 64 * 1024;

/**
 * The account API (SPEC §7 Account), mounted at /web/api: login by password or SMS code,
 * registration, codes, password reset, logout, and the signed-in user's profile and bindings.
 * Logins answer `{ token, expired }` and also set the `token` cookie.
 */
export function accountRoutes(ctx: AuthContext = authContext()): Hono<AuthEnv> {
  const routes = new Hono<AuthEnv>();
  const auth = authenticate(ctx);

  routes.post('/login', validate('json', loginBody), async (c) => {
    const body = c.req.valid('json');
    const session = await loginWithPassword(
      ctx,
      { ...toAddress(body.account), password: body.password, captchaVerification: body.captchaVerification },
      meta(c),
    );
    setTokenCookie(c, session);
    return c.json(ok(session, '登录成功'));
  });

  routes.post('/sms-login', validate('json', smsLoginBody), async (c) => {
    const session = await loginWithSmsCode(ctx, c.req.valid('json'), meta(c));
    setTokenCookie(c, session);
    return c.json(ok(session, '登录成功'));
  });

  routes.post('/logout', async (c) => {
    await logout(readToken(c));
    clearTokenCookie(c);
    return c.json(ok(null, '已退出登录'));
  });

  routes.post('/account/sendCode', validate('json', sendCodeBody), async (c) => {
    const body = c.req.valid('json');
    const data = await sendCode(
      ctx,
      { ...toAddress(body.account), purpose: body.purpose, captchaVerification: body.captchaVerification },
      meta(c),
    );
    return c.json(ok(data, '验证码已发送，5 分钟内有效'));
  });

  routes.post('/account/register/phone', validate('json', registerPhoneBody), async (c) => {
    const body = c.req.valid('json');
    const session = await register(ctx, { channel: 'sms', target: body.mobile, ...body }, meta(c));
    setTokenCookie(c, session);
    return c.json(ok(session, '注册成功'));
  });

  routes.post('/account/register/email', validate('json', registerEmailBody), async (c) => {
    const body = c.req.valid('json');
    const session = await register(ctx, { channel: 'email', target: body.email, ...body }, meta(c));
    setTokenCookie(c, session);
    return c.json(ok(session, '注册成功'));
  });

  routes.post('/account/rest-code-verify', validate('json', resetCodeBody), async (c) => {
    const body = c.req.valid('json');
    await verifyResetCode(ctx, { ...toAddress(body.account), code: body.code });
    return c.json(ok(null, '验证码正确，请设置新密码'));
  });

  routes.put('/account/rest-pwd', validate('json', resetPasswordBody), async (c) => {
    const body = c.req.valid('json');
    await resetPassword(ctx, { ...toAddress(body.account), code: body.code, password: body.password });
    return c.json(ok(null, '密码已重置，请用新密码登录'));
  });

  routes.get('/account/user-info', auth, async (c) => {
    return c.json(ok(await loadUserInfo(c.get('account').id)));
  });

  routes.put('/account/update-account-pwd', auth, validate('json', updatePasswordBody), async (c) => {
    await changePassword(ctx, c.get('account'), c.get('sessionId'), c.req.valid('json'));
    return c.json(ok(null, '密码已修改，其他设备需要重新登录'));
  });

  routes.put('/account/bind-account', auth, validate('json', bindBody), async (c) => {
    const body = c.req.valid('json');
    const address = toAddress(body.account);
    if ((body.type === 'mobile') !== (address.channel === 'sms')) {
      throw badRequest(body.type === 'mobile' ? '手机号格式不正确' : '邮箱格式不正确');
    }
    const info = await bindAddress(ctx, c.get('account'), { ...address, code: body.code, password: body.password });
    return c.json(ok(info, '绑定成功'));
  });

  routes.put('/account/unbind-account', auth, validate('json', unbindBody), async (c) => {
    return c.json(ok(await unbind(ctx, c.get('account'), c.req.valid('json')), '已解绑'));
  });

  routes.post(
    '/account/update-account-info',
    auth,
    bodyLimit({
      maxSize: PROFILE_BODY_LIMIT,
      onError: () => {
        throw payloadTooLarge('头像文件不能超过 2 MB');
      },
    }),
    async (c) => {
      const form = await c.req.parseBody().catch(() => {
        throw badRequest('请用表单（multipart/form-data）提交资料');
      });
      const file = form['file'] ?? form['avatar'];
      const nickname = form['nickname'];
      if (file !== undefined && !(file instanceof File)) throw badRequest('头像（file）：请上传图片文件');
      if (nickname !== undefined && typeof nickname !== 'string') throw badRequest('昵称（nickname）：请填写文字');
      const info = await updateProfile(ctx, c.get('account'), {
        nickname,
        avatar: file ? new Uint8Array(await file.arrayBuffer()) : undefined,
      });
      return c.json(ok(info, '资料已更新'));
    },
  );

  return routes;
}
