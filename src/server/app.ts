import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { requestId } from 'hono/request-id';
import { captchaRoutes } from './accounts/captcha-routes.ts';
import { accountRoutes } from './accounts/routes.ts';
import { wechatRoutes } from './accounts/wechat-routes.ts';
import { authContext } from './auth/context.ts';
import { readToken } from './auth/middleware.ts';
import { startAuthStateSweeper } from './auth/state-sweeper.ts';
import { bodyPolicies } from './body-limits.ts';
import { startPurgeRelay } from './content/changes.ts';
import { editorRoutes } from './content/editor/routes.ts';
import { contentRoutes } from './content/routes.ts';
import { customFontRoutes } from './custom-fonts/routes.ts';
import { env } from './env.ts';
import { favoriteRoutes } from './favorites/routes.ts';
import { downloadHistoryRoutes } from './fonts/download-history.ts';
import { downloadRoutes } from './fonts/download-routes.ts';
import { fontRoutes } from './fonts/routes.ts';
import { requestBodies } from './http/body-limit.ts';
import { csrfGuard } from './http/csrf.ts';
import { registerApiApp } from './http/direct-api.ts';
import { ApiError, type Envelope } from './http/envelope.ts';
import { logUnexpected } from './http/error-log.ts';
import { idempotentWrites, startIdempotencySweeper } from './http/idempotency.ts';
import { allowedMethods } from './http/method-check.ts';
import { openApiDocument } from './http/openapi.ts';
import { textGuard } from './http/text-guard.ts';
import { log } from './log.ts';
import { messageRoutes } from './messages/routes.ts';
import { signingRoutes } from './signing/routes.ts';
import { healthRoutes } from './site/health-routes.ts';
import { siteRoutes } from './site/routes.ts';
import { fileRoutes } from './storage/routes.ts';
import { submissionRoutes } from './submissions/routes.ts';
import { toolRoutes } from './tools/routes.ts';
import { startJobRunner } from './tools/runner.ts';
import { startToolsSweeper } from './tools/sweeper.ts';
import { userCentreRoutes } from './user-centre/routes.ts';
import { videoRoutes } from './videos/routes.ts';
import { webfontRoutes } from './webfont/routes.ts';

/** The URL prefixes the API answers; each is also mounted into Astro by one catch-all endpoint. */
export { API_PREFIXES } from './http/direct-api.ts';

/** What the OpenAPI document says of the API as a whole. */
export const OPENAPI_INFO = {
  title: '造字联盟官网 API',
  version: '1.0.0',
  description:
    '字体库、内容、账户、用户中心、投稿和字体工具的接口。每个回答都是 { code, message, data }：code 为 "200" 表示成功，否则 message 是给用户看的中文说明。参数的规则与服务器校验用的是同一份 zod 定义。',
};

function errorBody(code: string, message: string): Envelope<null> {
  return { code, message, data: null };
}

/**
 * Builds the API: one Hono app for every prefix. Every answer, errors included, is the
 * `{ code, message, data }` envelope; client mistakes are 4xx with a Chinese message, and only
 * faults of our own are 500, logged with the request id.
 */
export function createApp(): Hono {
  const app = new Hono();

  app.use(requestId());
  app.use(async (c, next) => {
    const started = performance.now();
    await next();
    const ms = Math.round((performance.now() - started) * 10) / 10;
    log().info(
      { reqId: c.get('requestId'), method: c.req.method, path: c.req.path, status: c.res.status, ms },
      'request',
    );
  });

  // An answer to a request that carries a login may hold personal data: no shared cache may keep
  // it, unless its route said otherwise (public reads set their own caching).
  app.use(async (c, next) => {
    await next();
    if (!c.res.headers.has('Cache-Control') && readToken(c)) c.header('Cache-Control', 'private, no-store');
  });
  app.use(csrfGuard());
  // Every body capped by its route's limit while it is read (body-limits.ts), never read here.
  app.use(requestBodies(bodyPolicies()));
  app.use(textGuard());
  // The writes the browser may send again after a network error are done once per key.
  app.use(idempotentWrites());

  app.route('/', healthRoutes());
  app.route('/web/api', fontRoutes());
  app.route('/web/api', favoriteRoutes());
  app.route('/web/api', downloadHistoryRoutes());
  app.route('/api/v1', downloadRoutes());
  app.route('/api/v1', messageRoutes());
  app.route('/web/api', siteRoutes());
  app.route('/web/api', contentRoutes());
  // Before the editor's routes: their /editor/:type/:id would refuse the type 'video'.
  app.route('/web/api', videoRoutes());
  app.route('/web/api', editorRoutes());
  app.route('/web/api', accountRoutes());
  app.route('/web/api', signingRoutes());
  app.route('/web/api', submissionRoutes());
  app.route('/web/api', customFontRoutes());
  app.route('/web/api', userCentreRoutes());
  app.route('/web/api', wechatRoutes());
  app.route('/captcha', captchaRoutes());
  app.route('/webfont', webfontRoutes());
  app.route('/tools/api', toolRoutes());
  app.route('/files', fileRoutes());
  // The API's own description, read from the routes above (http/openapi.ts), made on first request.
  let document: Record<string, unknown> | undefined;
  app.get('/api/openapi.json', (c) => {
    document ??= openApiDocument(app, OPENAPI_INFO);
    return c.json(document, 200, { 'Cache-Control': 'public, max-age=300' });
  });

  const methodsOf = allowedMethods(app);
  app.notFound((c) => {
    const allowed = methodsOf(c.req.path);
    if (allowed.length > 0 && !allowed.includes(c.req.method)) {
      const body = errorBody('405', `网络请求错误，请求方法未允许：${c.req.path} 只接受 ${allowed.join('、')}`);
      return c.json(body, 405, { Allow: allowed.join(', ') });
    }
    return c.json(errorBody('404', `接口不存在：${c.req.method} ${c.req.path}`), 404);
  });

  app.onError((error, c) => {
    if (error instanceof ApiError) {
      return c.json(errorBody(error.code, error.message), error.status, error.headers);
    }
    if (error instanceof HTTPException && error.status < 500) {
      const message = /json/i.test(error.message) ? '请求体不是有效的 JSON' : '请求格式不正确';
      return c.json(errorBody(String(error.status), message), error.status);
    }
    logUnexpected(error, c.get('requestId'), c.req.path);
    return c.json(errorBody('500', `服务器出错了，请稍后再试或联系管理员（请求编号 ${c.get('requestId')}）`), 500);
  });

  // Uploads and tool outputs expire; the sweeper runs with the API, whichever process hosts it,
  // and so do the job runners unless this node leaves jobs to `npm run worker`.
  startToolsSweeper();
  if (env().TOOLS_RUN_JOBS) startJobRunner();
  // Purges made on other nodes empty this node's caches too.
  startPurgeRelay();
  // Expired rate counters and captchas are rows in the database; any node may delete them.
  startAuthStateSweeper(authContext());
  startIdempotencySweeper();
  return app;
}

let shared: Hono | undefined;

/** The process-wide app, built on first use (Astro endpoints and scripts/api.ts share it). */
export function apiApp(): Hono {
  if (!shared) {
    shared = createApp();
    registerApiApp(shared);
  }
  return shared;
}
