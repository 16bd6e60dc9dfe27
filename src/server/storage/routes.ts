import { Hono } from 'hono';
import { ApiError, badRequest, forbidden, notFound } from '../http/envelope.ts';
import { answerObject } from './http-range.ts';
import {
  contentTypeOf,
  type GetOptions,
  INCOMING_PREFIX,
  localUploadCredentials,
  StorageKeyError,
  storage,
  validateKey,
} from './index.ts';
import { verifyPresigned } from './presign.ts';

/** Keys under these prefixes are never served by /files. */
export const PRIVATE_PREFIXES = ['tools/', 'private/'] as const;

/**
 * Serves stored objects: GET /files/<key> (mounted at /files). Keys never change content,
 * so answers may be cached for a year; a missing or invalid key answers the 404 envelope.
 */
export function fileRoutes(): Hono {
  const routes = new Hono();
  routes.get('/:key{.+}', async (c) => {
    const key = c.req.param('key');
    // Tool uploads and outputs are temporary and private: they are served only by the expiring,
    // no-store routes of /tools/api, never with this route's year-long public caching. Signed
    // agreements are served only to their owner, by /web/api/signing/pdf.
    if (PRIVATE_PREFIXES.some((prefix) => key.startsWith(prefix))) throw notFound('文件不存在');
    const open = async (options: GetOptions) => {
      try {
        return await storage().get(key, options);
      } catch (error) {
        if (error instanceof StorageKeyError) return undefined;
        throw error;
      }
    };
    return answerObject(
      c,
      open,
      (object) => ({
        'Content-Type': contentTypeOf(key),
        'Cache-Control': 'public, max-age=31536000, immutable',
        'Last-Modified': object.mtime.toUTCString(),
        'X-Content-Type-Options': 'nosniff',
      }),
      () => notFound('文件不存在'),
    );
  });
  // Presigned uploads (storage/presign.ts), the protocol S3 speaks: only into the incoming area,
  // only with a valid, unexpired signature over this key, size and type. The object appears whole
  // or not at all (put is atomic), and one whose bytes fall short of the signed size is removed.
  routes.put('/:key{.+}', async (c) => {
    const key = c.req.param('key');
    const url = new URL(c.req.url);
    const problem = verifyPresigned(
      localUploadCredentials(),
      { method: 'PUT', path: url.pathname, query: url.searchParams, header: (name) => c.req.header(name) },
      new Date(),
    );
    if (problem === 'expired') throw forbidden('上传凭证已过期，请重新选择文件上传');
    if (problem) throw forbidden('上传凭证无效，请重新选择文件上传');
    try {
      validateKey(key);
    } catch {
      throw badRequest('上传路径无效');
    }
    if (!key.startsWith(`${INCOMING_PREFIX}/`)) throw forbidden('上传凭证无效，请重新选择文件上传');
    const declared = Number(c.req.header('content-length'));
    const body = c.req.raw.body;
    if (!body || !Number.isInteger(declared)) throw badRequest('上传的文件是空的');
    try {
      await storage().put(key, body);
    } catch (error) {
      await storage().delete(key);
      if (error instanceof ApiError) throw error;
      throw badRequest('上传中断，请重新上传');
    }
    const stat = await storage().stat(key);
    if (stat?.size !== declared) {
      await storage().delete(key);
      throw badRequest('上传的文件不完整，请重新上传');
    }
    return c.body(null, 200, { ETag: `"${stat.size}-${stat.mtime.getTime()}"` });
  });
  return routes;
}
