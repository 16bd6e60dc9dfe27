import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { UserInfo } from '../../src/server/accounts/common.ts';
import { accounts } from '../../src/server/db/schema/index.ts';
import { resetEnv } from '../../src/server/env.ts';
import { type AccountHarness, openAccountHarness } from '../helpers/account-harness.ts';
import { type FakeWechat, startFakeWechat } from '../helpers/fake-wechat.ts';

const APP = { appId: 'wx0123456789abcdef', appSecret: 'fake-app-secret' };
let h: AccountHarness;
let wechat: FakeWechat;

beforeAll(async () => {
  wechat = await startFakeWechat(APP);
  h = await openAccountHarness({
    WECHAT_APP_ID: APP.appId,
    WECHAT_APP_SECRET: APP.appSecret,
    WECHAT_OPEN_URL: wechat.url,
    WECHAT_API_URL: wechat.url,
    SITE_URL: 'https://fonts.example.com',
  });
});
afterAll(async () => {
  await h.close();
  await wechat.close();
});

/** Starts an authorisation as the browser does: the QR address and the state cookie. */
async function authorize(mode: 'login' | 'bind' = 'login', token?: string) {
  const res = await h.call<{ url: string }>(
    'POST',
    '/web/api/wechat/authorize',
    { mode, redirect: '/font' },
    token ? { token } : {},
  );
  const cookie = /wechat_state=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1] ?? '';
  const url = res.status === 200 ? new URL(res.body.data.url) : undefined;
  return { res, cookie, url, state: url?.searchParams.get('state') ?? '' };
}

function callback(body: Record<string, unknown>, cookie?: string, token?: string) {
  return h.call<{ mode: string; token?: string; expired?: number; redirect: string }>(
    'POST',
    '/web/api/wechat/callback',
    body,
    {
      headers: cookie ? { cookie: `wechat_state=${cookie}` } : {},
      ...(token ? { token } : {}),
    },
  );
}

async function accountCount(): Promise<number> {
  const [row] = await h.db.select({ n: count() }).from(accounts);
  return row?.n ?? 0;
}

describe('WeChat login', () => {
  test('sends the visitor to the QR page with the app id, the callback page and a fresh state', async () => {
    const first = await authorize();
    const second = await authorize();
    expect(first.url?.origin + (first.url?.pathname ?? '')).toBe(`${wechat.url}/connect/qrconnect`);
    expect(first.url?.hash).toBe('#wechat_redirect');
    expect(Object.fromEntries(first.url?.searchParams ?? [])).toMatchObject({
      appid: APP.appId,
      redirect_uri: 'https://fonts.example.com/account/wechat',
      response_type: 'code',
      scope: 'snsapi_login',
    });
    expect(first.state.length).toBeGreaterThanOrEqual(32);
    expect(first.state).not.toBe(second.state);
    const cookie = first.res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/Path=\/web\/api\/wechat/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(first.cookie).toBe(first.state);
  });

  test('builds the callback address from SITE_URL, never from the Host header', async () => {
    const res = await h.call<{ url: string }>(
      'POST',
      '/web/api/wechat/authorize',
      { mode: 'login' },
      { headers: { host: 'evil.example.net', 'x-forwarded-host': 'evil.example.net' } },
    );
    expect(new URL(res.body.data.url).searchParams.get('redirect_uri')).toBe(
      'https://fonts.example.com/account/wechat',
    );
  });

  test('keeps only a path on this site as the place to return to', async () => {
    for (const redirect of ['https://evil.example.net/', '//evil.example.net', '/\\evil.example.net']) {
      const a = await h.call<{ url: string }>('POST', '/web/api/wechat/authorize', { mode: 'login', redirect });
      const state = new URL(a.body.data.url).searchParams.get('state') ?? '';
      const cookie = /wechat_state=([^;]+)/.exec(a.headers.get('set-cookie') ?? '')?.[1] ?? '';
      const res = await callback({ code: wechat.issueCode({ openid: 'o-redirect', nickname: '跳转' }), state }, cookie);
      expect(res.body.data.redirect).toBe('/');
    }
  });

  test('signs in through the real flow and keeps one account per unionid', async () => {
    const before = await accountCount();
    const user = { openid: 'o-first', unionid: 'u-ink', nickname: '微信墨客' };
    const a = await authorize();
    const first = await callback({ code: wechat.issueCode(user), state: a.state }, a.cookie);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ mode: 'login', redirect: '/font', expired: 604_800 });
    expect(first.headers.get('set-cookie')).toContain(`token=${first.body.data.token}`);
    const info = await h.call<UserInfo>('GET', '/web/api/account/user-info', undefined, {
      token: first.body.data.token ?? '',
    });
    expect(info.body.data).toMatchObject({ nickname: '微信墨客', wechatBound: true, hasPassword: false });
    // Again, and from another app of the same Open Platform account (another openid, same unionid).
    const b = await authorize();
    const again = await callback(
      { code: wechat.issueCode({ ...user, openid: 'o-other-app' }), state: b.state },
      b.cookie,
    );
    const againInfo = await h.call<UserInfo>('GET', '/web/api/account/user-info', undefined, {
      token: again.body.data.token ?? '',
    });
    expect(againInfo.body.data.id).toBe(info.body.data.id);
    expect(await accountCount()).toBe(before + 1);
  });

  test('keys on openid when WeChat sends no unionid', async () => {
    const user = { openid: 'o-lonely', nickname: '无联合' };
    const a = await authorize();
    const first = await callback({ code: wechat.issueCode(user), state: a.state }, a.cookie);
    const b = await authorize();
    const second = await callback({ code: wechat.issueCode(user), state: b.state }, b.cookie);
    const ids = await Promise.all(
      [first, second].map(
        async (res) =>
          (await h.call<UserInfo>('GET', '/web/api/account/user-info', undefined, { token: res.body.data.token ?? '' }))
            .body.data.id,
      ),
    );
    expect(ids[0]).toBe(ids[1]);
  });

  test.each([
    ['a missing state', (s: string) => ({ body: {}, cookie: s })],
    ['no cookie', (s: string) => ({ body: { state: s }, cookie: undefined })],
    ['a state that does not match the cookie', (s: string) => ({ body: { state: s }, cookie: `${s}x` })],
    [
      'a state never handed out',
      () => ({ body: { state: 'made-up-state-made-up-state-12345' }, cookie: 'made-up-state-made-up-state-12345' }),
    ],
  ])('answers 400 for %s and creates no account', async (_name, make) => {
    const before = await accountCount();
    const a = await authorize();
    const { body, cookie } = make(a.state);
    const res = await callback({ ...body, code: wechat.issueCode({ openid: 'o-csrf', nickname: '攻击者' }) }, cookie);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('微信登录请求已失效，请回到登录窗口重新扫码');
    expect(await accountCount()).toBe(before);
  });

  test('a state works once and expires after ten minutes', async () => {
    const user = { openid: 'o-once', unionid: 'u-once', nickname: '一次' };
    const a = await authorize();
    expect((await callback({ code: wechat.issueCode(user), state: a.state }, a.cookie)).status).toBe(200);
    const reused = await callback({ code: wechat.issueCode(user), state: a.state }, a.cookie);
    expect(reused.status).toBe(400);
    const late = await authorize();
    h.clock.advance(10 * 60_000);
    const expired = await callback({ code: wechat.issueCode(user), state: late.state }, late.cookie);
    expect(expired.status).toBe(400);
  });

  test('answers a code WeChat refuses (40029) with a clear message and creates no account', async () => {
    const before = await accountCount();
    const code = wechat.issueCode({ openid: 'o-used', unionid: 'u-used', nickname: '用过' });
    const a = await authorize();
    expect((await callback({ code, state: a.state }, a.cookie)).status).toBe(200);
    const b = await authorize();
    const res = await callback({ code, state: b.state }, b.cookie);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('微信授权码无效或已使用，请重新扫码登录');
    expect(await accountCount()).toBe(before + 1);
  });

  test('says so when the visitor declined on the phone (state only)', async () => {
    const a = await authorize();
    const res = await callback({ state: a.state }, a.cookie);
    expect(res.body.message).toBe('你取消了微信授权');
  });
});

describe('WeChat binding', () => {
  test('binds WeChat to the signed-in account, refuses a WeChat bound elsewhere, and unbinds', async () => {
    const token = await h.register('13500135000', 'wechat binder 1');
    expect((await authorize('bind')).res.status).toBe(401);
    const a = await authorize('bind', token);
    const bound = await callback(
      { code: wechat.issueCode({ openid: 'o-bind', unionid: 'u-bind', nickname: '绑定者' }), state: a.state },
      a.cookie,
    );
    expect(bound.body.data).toMatchObject({ mode: 'bind', redirect: '/font' });
    expect(bound.headers.get('set-cookie')).not.toContain('token=');
    const info = await h.call<UserInfo>('GET', '/web/api/account/user-info', undefined, { token });
    expect(info.body.data).toMatchObject({ wechatBound: true, wechatNickname: '绑定者' });

    const other = await h.register('13500135001', 'wechat binder 2');
    const b = await authorize('bind', other);
    const taken = await callback(
      { code: wechat.issueCode({ openid: 'o-bind', unionid: 'u-bind', nickname: '绑定者' }), state: b.state },
      b.cookie,
    );
    expect(taken.status).toBe(400);
    expect(taken.body.message).toBe('这个微信已绑定其他账户');

    const unbound = await h.call<UserInfo>(
      'PUT',
      '/web/api/account/unbind-account',
      { type: 'wechat', password: 'wechat binder 1' },
      { token },
    );
    expect(unbound.body.data.wechatBound).toBe(false);
    const [row] = await h.db.select().from(accounts).where(eq(accounts.mobile, '13500135000'));
    expect([row?.wechatUnionid, row?.wechatOpenid]).toEqual([null, null]);
  });

  test('a WeChat-only account cannot unbind its only way in', async () => {
    const a = await authorize();
    const login = await callback(
      { code: wechat.issueCode({ openid: 'o-only', unionid: 'u-only', nickname: '仅微信' }), state: a.state },
      a.cookie,
    );
    const res = await h.call(
      'PUT',
      '/web/api/account/unbind-account',
      { type: 'wechat' },
      { token: login.body.data.token ?? '' },
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('解绑后将无法登录这个账户，请先绑定其他登录方式');
  });
});

describe('WeChat not configured', () => {
  test('reports it and explains instead of redirecting', async () => {
    const saved = { ...process.env };
    delete process.env['WECHAT_APP_ID'];
    delete process.env['WECHAT_APP_SECRET'];
    resetEnv();
    try {
      const config = await h.call('GET', '/web/api/wechat/config');
      expect(config.body.data).toEqual({ enabled: false });
      const res = await h.call('POST', '/web/api/wechat/authorize', { mode: 'login' });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('本站尚未开通微信登录，请使用手机号或邮箱登录');
    } finally {
      process.env = saved;
      resetEnv();
    }
    expect((await h.call('GET', '/web/api/wechat/config')).body.data).toEqual({ enabled: true });
  });
});
