// SPEC §8: the Chinese message for each HTTP status the client can meet.

/** Shown on 401 when the server sends no message of its own. */
export const UNAUTHORIZED_MESSAGE = '用户没有权限（令牌、用户名或密码错误）';
/** Shown when a request runs out of time in the browser (no answer at all). */
export const TIMEOUT_MESSAGE = '网络请求超时';
/** Shown when no answer arrived (offline, DNS, refused connection). */
export const NETWORK_MESSAGE = '网络连接失败，请检查网络后重试';

/** The fixed messages of SPEC §8, by status. 400 and 401 prefer the server's message. */
export const HTTP_STATUS_MESSAGES: Readonly<Record<number, string>> = {
  400: '请求参数有误',
  401: UNAUTHORIZED_MESSAGE,
  403: '用户得到授权，但是访问是被禁止的',
  404: '网络请求错误，未找到该资源',
  405: '网络请求错误，请求方法未允许',
  408: TIMEOUT_MESSAGE,
  500: '服务器错误，请联系管理员',
  501: '网络未实现',
  502: '网络错误',
  503: '服务不可用，服务器暂时过载或维护',
  504: '网络超时',
  505: 'HTTP 版本不受支持该请求',
};

/**
 * The message for an HTTP error. 400 and 401 show what the server said (it knows which field or
 * credential is wrong); the other catalogue statuses use SPEC's fixed text; statuses outside the
 * catalogue (413, 429 …) show the server's message, which the API always writes in Chinese.
 */
export function httpErrorMessage(status: number, serverMessage?: string | null): string {
  const fromServer = serverMessage?.trim();
  if ((status === 400 || status === 401) && fromServer) return fromServer;
  const fixed = HTTP_STATUS_MESSAGES[status];
  if (fixed) return fixed;
  return fromServer || `请求失败（HTTP ${status}），请稍后再试`;
}
