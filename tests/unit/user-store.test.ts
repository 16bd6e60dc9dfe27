import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { type BrowserFakes, installBrowserFakes } from '../helpers/browser-fakes.ts';
import { type Answer, type StatusServer, startStatusServer } from '../helpers/status-server.ts';
import { userInfo } from '../helpers/users.ts';

type UserModule = typeof import('../../src/stores/user.ts');

let fakes: BrowserFakes & { restore: () => void };
let server: StatusServer;
let answers: Record<string, Answer>;
let user: UserModule;

beforeEach(async () => {
  fakes = installBrowserFakes('/font');
  answers = {};
  server = await startStatusServer((request) => answers[request.url.split('?')[0] ?? ''] ?? { status: 404 });
  vi.stubEnv('PUBLIC_API_BASE', server.url);
  vi.resetModules();
  user = await import('../../src/stores/user.ts');
});

afterEach(async () => {
  const toast = await import('../../src/stores/toast.ts');
  toast.closeAllToasts();
  vi.unstubAllEnvs();
  fakes.restore();
  await server.close();
});

const ok = (data: unknown): Answer => ({ body: { code: '200', message: 'ok', data } });

describe('setToken', () => {
  test('writes the token cookie with path / and max-age from expired', () => {
    user.setToken('abc123', 3600);
    expect(user.$token.get()).toBe('abc123');
    expect(fakes.document.jar.get('token')).toMatchObject({
      value: 'abc123',
      attributes: { path: '/', 'max-age': '3600' },
    });
    expect(user.readTokenCookie()).toBe('abc123');
  });

  test('writes a session cookie when no lifetime is given', () => {
    user.setToken('abc123');
    const cookie = fakes.document.jar.get('token');
    expect(cookie?.attributes).not.toHaveProperty('max-age');
    expect(cookie?.attributes).not.toHaveProperty('expires');
  });

  test('uses the configured cookie domain', async () => {
    vi.stubEnv('PUBLIC_COOKIE_DOMAIN', '.zaozi.example');
    vi.resetModules();
    const fresh = await import('../../src/stores/user.ts');
    fresh.setToken('t', 60);
    expect(fakes.document.jar.get('token')?.attributes['domain']).toBe('.zaozi.example');
  });

  test('removes the cookie when the token is empty', () => {
    user.setToken('abc123', 3600);
    user.setToken('');
    expect(fakes.document.jar.has('token')).toBe(false);
    expect(user.$token.get()).toBe('');
  });
});

describe('clearToken', () => {
  test('forgets token, cookie, user info and favourites without calling the server', () => {
    user.setToken('abc', 60);
    user.$userInfo.set(userInfo({ nickname: '墨' }));
    user.$favoriteFonts.set([
      {
        id: 0,
        name: '我的收藏',
        fontList: [{ fontGNo: 'noto-sans-sc', familyName: '思源黑体', createdAt: '2026-01-01T00:00:00.000Z' }],
      },
    ]);
    user.clearToken();
    expect(user.$token.get()).toBe('');
    expect(fakes.document.jar.has('token')).toBe(false);
    expect(user.$userInfo.get()).toBeNull();
    expect(user.$favoriteFonts.get()).toEqual([]);
    expect(server.received).toHaveLength(0);
  });
});

describe('logout', () => {
  test('tells the server with the token header, then clears the session', async () => {
    answers['/web/api/logout'] = ok(null);
    user.setToken('abc', 60);
    user.$userInfo.set(userInfo());
    await user.logout();
    expect(server.received.map((r) => r.url)).toEqual(['/web/api/logout']);
    expect(server.received[0]?.headers['alliance-authenticate']).toBe('abc');
    expect(user.$token.get()).toBe('');
    expect(user.$userInfo.get()).toBeNull();
  });

  test('clears the session even when the server call fails, and only logs the failure', async () => {
    answers['/web/api/logout'] = { status: 500, body: { code: '500', message: 'down', data: null } };
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const toast = await import('../../src/stores/toast.ts');
    user.setToken('abc', 60);
    user.$favoriteFonts.set([{ id: 0, name: '我的收藏', fontList: [] }]);
    await user.logout();
    expect(warn).toHaveBeenCalledOnce();
    expect(toast.$toasts.get()).toEqual([]);
    expect(user.$token.get()).toBe('');
    expect(user.$favoriteFonts.get()).toEqual([]);
    expect(fakes.document.jar.has('token')).toBe(false);
    warn.mockRestore();
  });

  test('makes no call without a token', async () => {
    await user.logout();
    expect(server.received).toHaveLength(0);
  });
});

describe('openAccountModal', () => {
  test('opens on the login form by default', () => {
    expect(user.$accountModal.get()).toEqual({ visible: false, type: 'login' });
    user.openAccountModal();
    expect(user.$accountModal.get()).toEqual({ visible: true, type: 'login' });
    user.openAccountModal('register');
    expect(user.$accountModal.get()).toEqual({ visible: true, type: 'register' });
    user.closeAccountModal();
    expect(user.$accountModal.get()).toEqual({ visible: false, type: 'register' });
  });
});

describe('loginWithToken', () => {
  test('stores the token, then loads user info, favourite fonts, articles and collections in turn', async () => {
    answers['/web/api/account/user-info'] = ok({ id: 9, nickname: '墨' });
    answers['/web/api/fontOverride/collection/allFont'] = ok([{ fontList: [{ fontGNo: 'a' }] }]);
    answers['/web/api/favorite/getArticleByUser'] = ok([{ id: 1 }]);
    answers['/web/api/favorite/getCollByUser'] = ok([{ id: 2 }]);
    await user.loginWithToken('tok', 7200);
    expect(fakes.document.jar.get('token')?.attributes['max-age']).toBe('7200');
    expect(server.received.map((r) => r.url)).toEqual([
      '/web/api/account/user-info',
      '/web/api/fontOverride/collection/allFont',
      '/web/api/favorite/getArticleByUser',
      '/web/api/favorite/getCollByUser',
    ]);
    expect(server.received.every((r) => r.headers['alliance-authenticate'] === 'tok')).toBe(true);
    expect(user.$userInfo.get()).toEqual({ id: 9, nickname: '墨' });
    expect(user.$favoriteArticles.get()).toEqual([{ id: 1 }]);
    expect(user.$favoriteCollects.get()).toEqual([{ id: 2 }]);
  });
});

describe('resumeSession', () => {
  test('does nothing for a visitor without a token cookie', async () => {
    await user.resumeSession();
    expect(server.received).toHaveLength(0);
    expect(user.$token.get()).toBe('');
  });

  test('keeps the cookie token and loads the user and favourites', async () => {
    fakes.document.cookie = 'token=fromcookie; path=/';
    answers['/web/api/account/user-info'] = ok({ id: 3 });
    answers['/web/api/fontOverride/collection/allFont'] = ok([]);
    answers['/web/api/favorite/getCollByUser'] = ok([]);
    answers['/web/api/favorite/getArticleByUser'] = ok([]);
    await user.resumeSession();
    expect(user.$token.get()).toBe('fromcookie');
    expect(user.$userInfo.get()).toEqual({ id: 3 });
    expect(server.received).toHaveLength(4);
  });

  test('stops when the first answer says the session expired (S00106)', async () => {
    fakes.document.cookie = 'token=stale; path=/';
    answers['/web/api/account/user-info'] = { body: { code: 'S00106', message: '登录已过期', data: null } };
    await user.resumeSession();
    expect(user.$token.get()).toBe('');
    expect(fakes.document.jar.has('token')).toBe(false);
    expect(server.received).toHaveLength(1);
    expect(fakes.location.assigned).toEqual(['/']);
  });
});

describe('isLoggedIn', () => {
  test('is true with a token in the store or in the cookie', () => {
    expect(user.isLoggedIn()).toBe(false);
    fakes.document.cookie = 'token=x; path=/';
    expect(user.isLoggedIn()).toBe(true);
    fakes.document.cookie = 'token=; max-age=0';
    expect(user.isLoggedIn()).toBe(false);
    user.$token.set('y');
    expect(user.isLoggedIn()).toBe(true);
  });
});
