import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, test, vi } from 'vitest';
import { type BrowserFakes, installBrowserFakes } from '../helpers/browser-fakes.ts';
import { type Answer, type StatusServer, startStatusServer } from '../helpers/status-server.ts';
import { userInfo } from '../helpers/users.ts';

type HttpModule = typeof import('../../src/api/http.ts');
type UserModule = typeof import('../../src/stores/user.ts');
type ToastModule = typeof import('../../src/stores/toast.ts');
type NetworkModule = typeof import('../../src/stores/network.ts');

let server: StatusServer;
let answer: (path: string) => Answer;
let fakes: BrowserFakes & { restore: () => void };
let http: HttpModule;
let user: UserModule;
let toast: ToastModule;
let network: NetworkModule;

beforeAll(async () => {
  server = await startStatusServer((request) => answer(request.url.split('?')[0] ?? '/'));
});
afterAll(() => server.close());

beforeEach(async () => {
  fakes = installBrowserFakes('/font');
  server.received.length = 0;
  answer = () => ({ body: { code: '200', message: 'ok', data: null } });
  vi.resetModules();
  http = await import('../../src/api/http.ts');
  user = await import('../../src/stores/user.ts');
  toast = await import('../../src/stores/toast.ts');
  network = await import('../../src/stores/network.ts');
});

afterEach(() => {
  toast.closeAllToasts();
  fakes.restore();
});

const client = () => http.createHttpClient({ baseURL: server.url });
const toastMessages = () => toast.$toasts.get().map((t) => t.message);

describe('createHttpClient', () => {
  test('returns the envelope data on code 200 and sends the SPEC headers', async () => {
    answer = () => ({ body: { code: '200', message: 'ok', data: { id: 1 } } });
    user.setToken('secret-token', 60);
    await expect(client()('/web/api/x', { method: 'POST', body: { a: 1 } })).resolves.toEqual({ id: 1 });
    const [request] = server.received;
    expect(request?.headers['x-requested-with']).toBe('XMLHttpRequest');
    expect(request?.headers['content-type']).toBe('application/json;charset=UTF-8');
    expect(request?.headers['alliance-authenticate']).toBe('secret-token');
    expect(request?.body).toBe('{"a":1}');
  });

  test('sends no token header for visitors', async () => {
    await client()('/web/api/x');
    expect(server.received[0]?.headers).not.toHaveProperty('alliance-authenticate');
  });

  test('passes query parameters', async () => {
    await client()('/web/api/list', { query: { current: 2, size: 10 } });
    expect(server.received[0]?.url).toBe('/web/api/list?current=2&size=10');
  });

  test('counts requests in flight for the loading bar', async () => {
    answer = () => ({ body: { code: '200', message: 'ok', data: 1 }, delayMs: 50 });
    const seen: number[] = [];
    const stop = network.$pendingRequests.listen((value) => seen.push(value));
    await Promise.all([client()('/a'), client()('/b')]);
    stop();
    expect(Math.max(...seen)).toBe(2);
    expect(network.$pendingRequests.get()).toBe(0);
  });

  test('shows a business error as a toast and rejects with its message', async () => {
    answer = () => ({ body: { code: 'B1001', message: '收藏夹名称已存在', data: null } });
    await expect(client()('/x')).rejects.toMatchObject({ message: '收藏夹名称已存在', code: 'B1001' });
    expect(toastMessages()).toEqual(['收藏夹名称已存在']);
  });

  test('on S00106 clears the token and goes home', async () => {
    answer = () => ({ body: { code: 'S00106', message: '登录已过期，请重新登录', data: null } });
    user.setToken('old', 60);
    await expect(client()('/x')).rejects.toMatchObject({ code: 'S00106' });
    expect(user.$token.get()).toBe('');
    expect(fakes.document.jar.has('token')).toBe(false);
    expect(fakes.location.assigned).toEqual(['/']);
  });
});

describe('createHttpClient HTTP errors (SPEC §8)', () => {
  it.each([
    [400, '字体名称不能为空', '字体名称不能为空'],
    [400, undefined, '请求参数有误'],
    [401, '登录已失效', '登录已失效'],
    [401, undefined, '用户没有权限（令牌、用户名或密码错误）'],
    [403, '服务器的说法', '用户得到授权，但是访问是被禁止的'],
    [404, undefined, '网络请求错误，未找到该资源'],
    [405, undefined, '网络请求错误，请求方法未允许'],
    [408, undefined, '网络请求超时'],
    [500, '服务器出错了（请求编号 1）', '服务器错误，请联系管理员'],
    [501, undefined, '网络未实现'],
    [502, undefined, '网络错误'],
    [503, undefined, '服务不可用，服务器暂时过载或维护'],
    [504, undefined, '网络超时'],
    [505, undefined, 'HTTP 版本不受支持该请求'],
    [429, '操作太频繁，请稍后再试', '操作太频繁，请稍后再试'],
    [418, undefined, '请求失败（HTTP 418），请稍后再试'],
  ])('answers %i (server message %j) with toast and rejection %j', async (status, message, expected) => {
    answer = () => ({ status, body: message ? { code: String(status), message, data: null } : '' });
    await expect(client()('/x')).rejects.toMatchObject({ message: expected, status });
    expect(toastMessages()).toEqual([expected]);
    expect(network.$pendingRequests.get()).toBe(0);
  });

  test('on 401 with a session clears the token and goes home', async () => {
    answer = () => ({ status: 401, body: { code: '401', message: '请先登录', data: null } });
    user.setToken('dead', 60);
    user.$userInfo.set(userInfo());
    await expect(client()('/x')).rejects.toThrow('请先登录');
    expect(user.$token.get()).toBe('');
    expect(user.$userInfo.get()).toBeNull();
    expect(fakes.location.assigned).toEqual(['/']);
  });

  test('on 401 without a session stays on the page', async () => {
    answer = () => ({ status: 401, body: { code: '401', message: '账号或密码错误', data: null } });
    await expect(client()('/x')).rejects.toThrow('账号或密码错误');
    expect(fakes.location.assigned).toEqual([]);
  });

  test('reports a timeout', async () => {
    answer = () => ({ body: { code: '200', message: 'ok', data: 1 }, delayMs: 400 });
    const slow = http.createHttpClient({ baseURL: server.url, timeout: 50 });
    await expect(slow('/slow')).rejects.toMatchObject({ message: '网络请求超时' });
  });

  test('reports an unreachable server', async () => {
    const nowhere = http.createHttpClient({ baseURL: 'http://127.0.0.1:9' });
    await expect(nowhere('/x')).rejects.toMatchObject({ message: '网络连接失败，请检查网络后重试' });
    expect(toastMessages()).toEqual(['网络连接失败，请检查网络后重试']);
  });

  test('the quiet client rejects HTTP errors without a toast or a redirect', async () => {
    answer = () => ({ status: 401, body: { code: '401', message: '请先登录', data: null } });
    user.setToken('keep', 60);
    const quiet = http.createHttpClient({ baseURL: server.url, silentHttpErrors: true });
    await expect(quiet('/x')).rejects.toMatchObject({ status: 401 });
    expect(toastMessages()).toEqual([]);
    expect(user.$token.get()).toBe('keep');
    expect(fakes.location.assigned).toEqual([]);
  });

  test('a call made with quiet: true shows nothing', async () => {
    answer = () => ({ status: 500, body: '' });
    await expect(client()('/x', { quiet: true })).rejects.toMatchObject({ status: 500 });
    expect(toastMessages()).toEqual([]);
  });
});

describe('createHttpClient writes sent again (src/contract/idempotency.ts)', () => {
  const LISTED = '/web/api/favorite/addColl';
  const key = (index: number) => server.received[index]?.headers['idempotency-key'];

  test('names every write with a key of its own, and no read', async () => {
    await client()(LISTED, { method: 'POST', body: { id: 1 } });
    await client()(LISTED, { method: 'POST', body: { id: 1 } });
    await client()('/web/api/favorite/getCollByUser');
    expect(key(0)).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(key(1)).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(key(0)).not.toBe(key(1));
    expect(key(2)).toBeUndefined();
  });

  test('sends a listed write again once, with the same key, when the connection broke', async () => {
    let calls = 0;
    answer = () => (++calls === 1 ? { hangUp: true } : { body: { code: '200', message: '收藏成功', data: null } });
    await expect(client()(LISTED, { method: 'POST', body: { id: 7 } })).resolves.toBeNull();
    expect(server.received).toHaveLength(2);
    expect(key(1)).toBe(key(0));
    expect(server.received[1]?.body).toBe('{"id":7}');
    expect(toastMessages()).toEqual([]);
  });

  test('sends it again when the balancer says the server behind it did not answer', async () => {
    let calls = 0;
    answer = () => (++calls === 1 ? { status: 502, body: '' } : { body: { code: '200', message: 'ok', data: 1 } });
    await expect(client()(LISTED, { method: 'POST', body: { id: 7 } })).resolves.toBe(1);
    expect(server.received).toHaveLength(2);
    expect(key(1)).toBe(key(0));
  });

  test('gives up after the second try and shows the network message', async () => {
    answer = () => ({ hangUp: true });
    await expect(client()(LISTED, { method: 'POST', body: { id: 7 } })).rejects.toMatchObject({
      message: '网络连接失败，请检查网络后重试',
    });
    expect(server.received).toHaveLength(2);
    expect(toastMessages()).toEqual(['网络连接失败，请检查网络后重试']);
  });

  test('does not send again a write the server does not keep by key, nor one the server refused', async () => {
    answer = () => ({ hangUp: true });
    await expect(client()('/web/api/messageBoard/add', { method: 'POST', body: {} })).rejects.toThrow();
    expect(server.received).toHaveLength(1);
    server.received.length = 0;
    answer = () => ({ status: 500, body: '' });
    await expect(client()(LISTED, { method: 'POST', body: { id: 7 } })).rejects.toMatchObject({ status: 500 });
    expect(server.received).toHaveLength(1);
  });
});

describe('buildFormData', () => {
  test('sends arrays as key[] and skips empty values', async () => {
    const { buildFormData } = await import('../../src/api/upload.ts');
    const form = buildFormData({ name: '字', tags: ['a', 'b'], empty: undefined, none: null, count: 3 });
    expect([...form.entries()]).toEqual([
      ['name', '字'],
      ['tags[]', 'a'],
      ['tags[]', 'b'],
      ['count', '3'],
    ]);
  });

  test('lets the runtime set the multipart content type', async () => {
    vi.stubEnv('PUBLIC_API_BASE', server.url);
    vi.resetModules();
    const upload = await import('../../src/api/upload.ts');
    await upload.uploadFile('/up', { file: new Blob(['ttf']), filename: 'a.ttf', data: { kind: 'font' } });
    vi.unstubAllEnvs();
    const request = server.received.at(-1);
    expect(request?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(request?.body).toContain('filename="a.ttf"');
    expect(request?.body).toContain('name="kind"');
  });
});
