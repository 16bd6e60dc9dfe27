import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A WeChat user the fake server vouches for. */
export interface FakeWechatUser {
  openid: string;
  unionid?: string;
  nickname: string;
}

/** A local stand-in for WeChat's open platform: the QR page, the token exchange and the profile. */
export interface FakeWechat {
  /** The base address, for WECHAT_OPEN_URL and WECHAT_API_URL. */
  url: string;
  /** Issues an authorisation code for a user, as WeChat does when the user confirms on the phone. */
  issueCode(user: FakeWechatUser): string;
  /** The user the QR page signs in when a browser visits it. */
  scanAs(user: FakeWechatUser): void;
  /** Every request the server received, as method and path. */
  requests: string[];
  close(): Promise<void>;
}

function json(res: http.ServerResponse, body: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json; encoding=utf-8' });
  res.end(JSON.stringify(body));
}

/**
 * Starts the fake on a free port. It speaks the documented endpoints and errors: a code works
 * once and only with the right AppID and AppSecret (40029 otherwise, 40125 for a wrong secret),
 * and `/sns/userinfo` wants the access token it handed out (40001 otherwise).
 */
export async function startFakeWechat(app: { appId: string; appSecret: string }): Promise<FakeWechat> {
  const codes = new Map<string, FakeWechatUser>();
  const tokens = new Map<string, FakeWechatUser>();
  const requests: string[] = [];
  let scanning: FakeWechatUser | undefined;

  const issueCode = (user: FakeWechatUser) => {
    const code = `code_${randomBytes(8).toString('hex')}`;
    codes.set(code, user);
    return code;
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake.invalid');
    requests.push(`${req.method} ${url.pathname}`);
    const q = url.searchParams;
    if (url.pathname === '/connect/qrconnect') {
      // The person scans and confirms at once: back to the site with a code and the same state.
      if (q.get('appid') !== app.appId || q.get('scope') !== 'snsapi_login' || q.get('response_type') !== 'code') {
        res.writeHead(400).end('bad request');
        return;
      }
      const back = new URL(q.get('redirect_uri') ?? '');
      if (scanning) back.searchParams.set('code', issueCode(scanning));
      back.searchParams.set('state', q.get('state') ?? '');
      res.writeHead(302, { location: back.toString() }).end();
      return;
    }
    if (url.pathname === '/sns/oauth2/access_token') {
      if (q.get('appid') !== app.appId) return json(res, { errcode: 40013, errmsg: 'invalid appid' });
      if (q.get('secret') !== app.appSecret) return json(res, { errcode: 40125, errmsg: 'invalid appsecret' });
      if (q.get('grant_type') !== 'authorization_code')
        return json(res, { errcode: 40002, errmsg: 'invalid grant_type' });
      const user = codes.get(q.get('code') ?? '');
      codes.delete(q.get('code') ?? '');
      if (!user) return json(res, { errcode: 40029, errmsg: 'invalid code' });
      const token = `at_${randomBytes(8).toString('hex')}`;
      tokens.set(token, user);
      return json(res, {
        access_token: token,
        expires_in: 7200,
        refresh_token: `rt_${randomBytes(8).toString('hex')}`,
        openid: user.openid,
        scope: 'snsapi_login',
        ...(user.unionid ? { unionid: user.unionid } : {}),
      });
    }
    if (url.pathname === '/sns/userinfo') {
      const user = tokens.get(q.get('access_token') ?? '');
      if (!user || user.openid !== q.get('openid')) return json(res, { errcode: 40001, errmsg: 'invalid credential' });
      return json(res, {
        openid: user.openid,
        nickname: user.nickname,
        sex: 0,
        province: '',
        city: '',
        country: 'CN',
        headimgurl: '',
        privilege: [],
        ...(user.unionid ? { unionid: user.unionid } : {}),
      });
    }
    json(res, { errcode: 40066, errmsg: 'invalid url' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    issueCode,
    scanAs(user) {
      scanning = user;
    },
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
