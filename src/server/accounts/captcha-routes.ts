import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { CaptchaAnswer } from '../../contract/captcha.ts';
import type { CaptchaSubject } from '../auth/captcha.ts';
import { TRACK_JSON_BYTES } from '../auth/captcha.ts';
import { type AuthContext, authContext } from '../auth/context.ts';
import { type ApiBindings, clientIp } from '../auth/middleware.ts';
import { addressKey } from '../http/address-key.ts';
import { refuseForbiddenText } from '../http/text-guard.ts';
import { log } from '../log.ts';
import { accountRounds } from './common.ts';
import { toAddress } from './schemas.ts';

export type { CaptchaAnswer };

function answer(
  c: Context,
  repCode: string,
  repMsg: string | null,
  repData: Record<string, unknown> | null,
  status = 200,
) {
  const body: CaptchaAnswer = { repCode, repMsg, repData, success: repCode === '0000' };
  return c.json(body, status as ContentfulStatusCode);
}

const NOT_JSON = '请求体不是有效的 JSON';
const FORBIDDEN_TEXT = '验证数据含有不允许的字符（空字符或残缺的 Unicode 字符）';

/**
 * The JSON object of a captcha call, or the reason it is malformed (0016): not JSON, not an object,
 * or text holding a NUL or a lone surrogate (the database cannot store the first, nor encode the
 * second), refused before any field reaches a limiter key or a query.
 */
async function readJson(c: Context): Promise<Record<string, unknown> | string> {
  const text = await c.req.text();
  if (!text.trim()) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return NOT_JSON;
  try {
    refuseForbiddenText(parsed);
  } catch {
    return FORBIDDEN_TEXT;
  }
  return parsed as Record<string, unknown>;
}

/** Who asks: the address, and the browser id AJ-Captcha clients send as `clientUid`. */
function subjectOf(c: Context<{ Bindings: ApiBindings }>, body: Record<string, unknown>): CaptchaSubject {
  const uid = body['clientUid'];
  return {
    ip: addressKey(clientIp(c)),
    clientUid: typeof uid === 'string' && /^[\w-]{8,64}$/.test(uid) ? uid : undefined,
  };
}

/** The puzzles the account a login form names calls for (1 when it names none). */
async function roundsForAccount(ctx: AuthContext, account: unknown): Promise<number> {
  if (typeof account !== 'string' || !account.trim() || account.length > 254) return 1;
  const { channel, target } = toAddress(account.trim());
  return accountRounds(ctx, `${channel}:${target}`);
}

/**
 * The slider captcha, mounted at /captcha (SPEC §7 Captcha): POST /get hands out a puzzle, POST
 * /check takes one answer per puzzle with its drag track. Codes are AJ-Captcha's: 0000 passed, 6110
 * expired or used token, 6111 wrong position or track, 0011 missing field, 0016 malformed data,
 * 6201 too many requests or failures; and this site's 6114: passed, and the next puzzle of the
 * chain is in repData.
 */
export function captchaRoutes(ctx: AuthContext = authContext()): Hono<{ Bindings: ApiBindings }> {
  const routes = new Hono<{ Bindings: ApiBindings }>();
  routes.use('*', bodyLimit({ maxSize: 48 * 1024, onError: (c) => answer(c, '0016', '请求内容过大', null, 413) }));

  routes.post('/get', async (c) => {
    const body = await readJson(c);
    if (typeof body === 'string') return answer(c, '0016', body, null, 400);
    const type = body['captchaType'] ?? 'blockPuzzle';
    if (type !== 'blockPuzzle') return answer(c, '0016', '只支持滑动拼图验证（blockPuzzle）', null, 400);
    const verdict = await ctx.limits.captchaGetIp.hit(`ip:${addressKey(clientIp(c))}`);
    if (!verdict.allowed) {
      c.header('Retry-After', String(verdict.retryAfter));
      return answer(c, '6201', '获取验证码太频繁，请稍后再试', null, 429);
    }
    try {
      const created = await ctx.captcha.create(subjectOf(c, body), {
        rounds: await roundsForAccount(ctx, body['account']),
      });
      if (!created.ok) {
        c.header('Retry-After', String(created.retryAfter));
        return answer(c, '6201', created.message, null, 429);
      }
      return answer(c, '0000', null, { ...created.challenge, result: false });
    } catch (error) {
      log().error({ err: error }, 'Could not draw a captcha');
      return answer(c, '6112', '获取验证码失败，请稍后再试', null, 500);
    }
  });

  routes.post('/check', async (c) => {
    const body = await readJson(c);
    if (typeof body === 'string') return answer(c, '0016', body, null, 400);
    const { token, pointJson, trackJson, captchaType } = body;
    if (typeof token !== 'string' || !token) return answer(c, '0011', 'token 不能为空', null, 400);
    if (typeof pointJson !== 'string' || !pointJson) return answer(c, '0011', 'pointJson 不能为空', null, 400);
    if (token.length > 64 || pointJson.length > 1024) return answer(c, '0016', '验证数据格式不正确', null, 400);
    if (trackJson !== undefined && (typeof trackJson !== 'string' || trackJson.length > TRACK_JSON_BYTES * 2)) {
      return answer(c, '0016', '验证数据格式不正确', null, 400);
    }
    const verdict = await ctx.limits.captchaCheckIp.hit(`ip:${addressKey(clientIp(c))}`);
    if (!verdict.allowed) {
      c.header('Retry-After', String(verdict.retryAfter));
      return answer(c, '6201', '验证太频繁，请稍后再试', null, 429);
    }
    const result = await ctx.captcha.check(token, pointJson, trackJson, subjectOf(c, body));
    if (result.ok) {
      return answer(c, '0000', null, {
        captchaType: captchaType ?? 'blockPuzzle',
        token,
        result: true,
        captchaVerification: result.captchaVerification,
      });
    }
    if (result.repCode === '6114') return answer(c, '6114', result.message, { ...result.next, result: false });
    if (result.repCode === '6201') {
      c.header('Retry-After', String(result.retryAfter));
      return answer(c, '6201', result.message, null, 429);
    }
    return answer(c, result.repCode, result.message, null, result.repCode === '0016' ? 400 : 200);
  });

  return routes;
}
