import { ApiError } from '../http/envelope.ts';

/** The WeChat Open Platform settings of a website app. */
export interface WechatConfig {
  appId: string;
  appSecret: string;
  /** https://open.weixin.qq.com (the QR page). */
  openUrl: string;
  /** https://api.weixin.qq.com (token and user info). */
  apiUrl: string;
}

/** The person WeChat vouches for. */
export interface WechatUser {
  openid: string;
  unionid: string | undefined;
  nickname: string;
  avatarUrl: string | undefined;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/**
 * The QR-code login page (website app, scope snsapi_login). WeChat sends the visitor back to
 * `redirectUri` with `code` and the same `state`.
 */
export function qrConnectUrl(config: WechatConfig, redirectUri: string, state: string): string {
  const query = new URLSearchParams({
    appid: config.appId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'snsapi_login',
    state,
  });
  return `${trimSlash(config.openUrl)}/connect/qrconnect?${query}#wechat_redirect`;
}

interface WechatError {
  errcode?: number;
  errmsg?: string;
}

// The codes a user can cause, in words they can act on; others are reported with their number.
const KNOWN_ERRORS: Record<number, string> = {
  40029: '微信授权码无效或已使用，请重新扫码登录',
  40163: '微信授权码已使用，请重新扫码登录',
  42003: '微信授权已过期，请重新扫码登录',
  40030: '微信授权已失效，请重新扫码登录',
};

function wechatFailure(body: WechatError): ApiError {
  const code = body.errcode ?? -1;
  return new ApiError(400, '400', KNOWN_ERRORS[code] ?? `微信登录失败（错误码 ${code}），请稍后再试`);
}

async function getJson(fetchImpl: typeof fetch, url: string): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetchImpl(url, { signal: AbortSignal.timeout(10_000) });
  } catch {
    throw new ApiError(502, '502', '暂时连不上微信，请稍后再试');
  }
  const body = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  if (!response.ok || !body) throw new ApiError(502, '502', '微信服务暂时不可用，请稍后再试');
  if (typeof body['errcode'] === 'number' && body['errcode'] !== 0) throw wechatFailure(body as WechatError);
  return body;
}

/**
 * Exchanges the callback's code for an access token (`/sns/oauth2/access_token`), then reads the
 * profile (`/sns/userinfo`). The AppSecret and the tokens never leave the server. A refused code
 * (40029: invalid or already used) becomes a 400 with a clear message.
 */
export async function fetchWechatUser(
  config: WechatConfig,
  code: string,
  fetchImpl: typeof fetch,
): Promise<WechatUser> {
  const api = trimSlash(config.apiUrl);
  const tokenQuery = new URLSearchParams({
    appid: config.appId,
    secret: config.appSecret,
    code,
    grant_type: 'authorization_code',
  });
  const token = await getJson(fetchImpl, `${api}/sns/oauth2/access_token?${tokenQuery}`);
  const accessToken = token['access_token'];
  const openid = token['openid'];
  if (typeof accessToken !== 'string' || typeof openid !== 'string' || !openid) {
    throw new ApiError(502, '502', '微信返回的数据不完整，请稍后再试');
  }
  const infoQuery = new URLSearchParams({ access_token: accessToken, openid });
  const info = await getJson(fetchImpl, `${api}/sns/userinfo?${infoQuery}`);
  const unionid = info['unionid'] ?? token['unionid'];
  return {
    openid,
    unionid: typeof unionid === 'string' && unionid ? unionid : undefined,
    nickname: typeof info['nickname'] === 'string' ? info['nickname'].slice(0, 40) : '',
    avatarUrl: typeof info['headimgurl'] === 'string' ? info['headimgurl'] : undefined,
  };
}
