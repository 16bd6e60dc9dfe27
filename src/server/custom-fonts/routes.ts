import { Readable } from 'node:stream';
import { type Context, Hono } from 'hono';
import { CUSTOM_FONT_ACTION_DONE } from '../../contract/custom-fonts.ts';
import { type AccountResolver, requireAccount, sessionAccount, signedIn } from '../auth/current-account.ts';
import { contentDisposition } from '../fonts/download-routes.ts';
import { ApiError, notFound, ok } from '../http/envelope.ts';
import { pageQuery, validate } from '../http/validate.ts';
import { storage } from '../storage/index.ts';
import { ATTACHMENT_CONTENT_TYPES, attachmentTicket } from './attachments.ts';
import { attachmentQuery, moveBody, queueQuery, requestBody, ticketQuery, uidQuery } from './schemas.ts';
import {
  attachmentOf,
  callerOf,
  createRequest,
  detailOf,
  findVisible,
  listOwn,
  moveRequest,
  requestQueue,
} from './service.ts';

/**
 * The font-creation service (字体定制, /dingzhi), mounted at /web/api. A login is required for every
 * call: the requester follows the request in the user centre and hears of each step there. The
 * editors' queue, moves and attachment downloads need the editor role.
 */
export function customFontRoutes(options: { account?: AccountResolver } = {}): Hono {
  const resolve = options.account ?? sessionAccount;
  const routes = new Hono();
  const caller = async (c: Context) => callerOf(await requireAccount(resolve, c));

  routes.get('/dingzhi/uploadTicket', validate('query', ticketQuery), async (c) => {
    const { accountId } = await caller(c);
    return c.json(ok(await attachmentTicket(accountId, c.req.valid('query'))));
  });
  routes.post('/dingzhi/request', signedIn(resolve), validate('json', requestBody), async (c) => {
    const { accountId } = await caller(c);
    const detail = await createRequest(accountId, c.req.valid('json'));
    return c.json(ok(detail, '需求已提交，我们会在两个工作日内联系你'));
  });
  routes.get('/dingzhi/mine', validate('query', pageQuery), async (c) => {
    const { accountId } = await caller(c);
    return c.json(ok(await listOwn(accountId, c.req.valid('query'))));
  });
  routes.get('/dingzhi/detail', validate('query', uidQuery), async (c) => {
    const who = await caller(c);
    return c.json(ok(await detailOf(who, await findVisible(who, c.req.valid('query').uid))));
  });

  // The editors' side.
  routes.get('/dingzhi/queue', validate('query', queueQuery), async (c) => {
    const { filter, current, size } = c.req.valid('query');
    return c.json(ok(await requestQueue(await caller(c), filter, { current, size })));
  });
  // A form of the editor's page (answered with a redirect back to it) or a script's call.
  routes.post('/dingzhi/move', signedIn(resolve), validate('form', moveBody), async (c) => {
    const who = await caller(c);
    const { uid, action, from, note, quote } = c.req.valid('form');
    const page = `/editor/dingzhi/${uid}`;
    const wantsPage = (c.req.header('accept') ?? '').includes('text/html');
    try {
      const detail = await moveRequest(who, uid, { action, note, quote, seen: from });
      if (wantsPage) return c.redirect(`${page}?done=${action}`, 303);
      return c.json(ok(detail, CUSTOM_FONT_ACTION_DONE[action]));
    } catch (error) {
      if (wantsPage && error instanceof ApiError && error.status < 500 && error.status !== 404) {
        return c.redirect(`${page}?error=${encodeURIComponent(error.message)}`, 303);
      }
      throw error;
    }
  });
  routes.get('/dingzhi/attachment', validate('query', attachmentQuery), async (c) => {
    const { uid, file } = c.req.valid('query');
    const stored = await attachmentOf(await caller(c), uid, file);
    const object = await storage().get(stored.fileKey);
    if (!object) throw notFound('附件不存在');
    return c.body(Readable.toWeb(object.body) as ReadableStream, 200, {
      'Content-Type': ATTACHMENT_CONTENT_TYPES[stored.type] ?? 'application/octet-stream',
      'Content-Length': String(object.size),
      'Content-Disposition': contentDisposition(stored.name, `attachment-${stored.id}`),
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    });
  });
  return routes;
}
