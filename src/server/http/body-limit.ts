import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { payloadTooLarge } from './envelope.ts';

/** The largest JSON or form body any API call takes, unless its route sets its own (accounts, captcha). */
export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * Caps every request body that is not a file upload while it is read: a declared length over the
 * limit is refused at once, a chunked body as soon as the count passes it, with 413 and nothing
 * buffered beyond the limit. Multipart uploads are streamed and capped by http/multipart.ts, and
 * presigned PUTs to storage by their signed size.
 */
export function apiBodyLimit(maxSize = DEFAULT_BODY_LIMIT_BYTES): MiddlewareHandler {
  const limit = bodyLimit({
    maxSize,
    onError: () => {
      throw payloadTooLarge(`请求内容过大，最多 ${Math.round(maxSize / 1024)} KB`);
    },
  });
  return async (c, next) => {
    if (/^multipart\/form-data/i.test(c.req.header('content-type') ?? '')) return next();
    // A presigned upload's size is part of its signature, checked before the body is read (storage/routes.ts).
    if (c.req.method === 'PUT' && c.req.path.startsWith('/files/') && c.req.query('X-Amz-Signature')) return next();
    return limit(c, next);
  };
}
