import { Readable } from 'node:stream';
import { Hono } from 'hono';
import { ApiError, badRequest, forbidden, notFound } from '../http/envelope.ts';
import { INCOMING_PREFIX, localUploadCredentials, StorageKeyError, storage, validateKey } from './index.ts';
import { verifyPresigned } from './presign.ts';
import { parseRange } from './range.ts';

const CONTENT_TYPES: Record<string, string> = {
  ttf: 'font/ttf',
  otf: 'font/otf',
  woff: 'font/woff',
  woff2: 'font/woff2',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  mp4: 'video/mp4',
  webm: 'video/webm',
  vtt: 'text/vtt; charset=utf-8',
  gif: 'image/gif',
  zip: 'application/zip',
  txt: 'text/plain; charset=utf-8',
  json: 'application/json',
};

/** The Content-Type of a stored object, from its extension; unknown kinds are plain bytes. */
export function contentTypeOf(key: string): string {
  const extension = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  return CONTENT_TYPES[extension] ?? 'application/octet-stream';
}

/**
 * One stored object as an answer: the whole object (200) or, for a Range request, the one range
 * asked for (206 with Content-Range; 416 when it lies beyond the end), so that players can seek
 * and CDNs can fill their caches in parts. Keys never change content, so answers are immutable.
 */
async function serveObject(
  key: string,
  method: string,
  rangeHeader: string | undefined,
  ifRange: string | undefined,
): Promise<Response> {
  const stat = await storage().stat(key);
  if (!stat) throw notFound('文件不存在');
  const lastModified = stat.mtime.toUTCString();
  // A range of a copy the client no longer has would splice two versions: If-Range must name this one.
  const range = ifRange && ifRange !== lastModified ? undefined : parseRange(rangeHeader, stat.size);
  const headers: Record<string, string> = {
    'Content-Type': contentTypeOf(key),
    'Accept-Ranges': 'bytes',
    'Cache-Control': 'public, max-age=31536000, immutable',
    'Last-Modified': lastModified,
    'X-Content-Type-Options': 'nosniff',
  };
  if (range === 'unsatisfiable') {
    return new Response(null, { status: 416, headers: { ...headers, 'Content-Range': `bytes */${stat.size}` } });
  }
  const length = range ? range.end - range.start + 1 : stat.size;
  headers['Content-Length'] = String(length);
  if (range) headers['Content-Range'] = `bytes ${range.start}-${range.end}/${stat.size}`;
  const status = range ? 206 : 200;
  if (method === 'HEAD') return new Response(null, { status, headers });
  const object = await storage().get(key, range);
  if (!object) throw notFound('文件不存在');
  const body = object.bytes
    ? (object.bytes as Uint8Array<ArrayBuffer>)
    : (Readable.toWeb(object.body) as ReadableStream);
  return new Response(body, { status, headers });
}

/** Keys under these prefixes are never served by /files. */
export const PRIVATE_PREFIXES = ['tools/', 'private/'] as const;

/**
 * Serves stored objects: GET /files/<key> (mounted at /files), whole or by byte range (see
 * serveObject); a missing or invalid key answers the 404 envelope.
 */
export function fileRoutes(): Hono {
  const routes = new Hono();
  routes.get('/:key{.+}', async (c) => {
    const key = c.req.param('key');
    // Tool uploads and outputs are temporary and private: they are served only by the expiring,
    // no-store routes of /tools/api, never with this route's year-long public caching. Signed
    // agreements are served only to their owner, by /web/api/signing/pdf.
    if (PRIVATE_PREFIXES.some((prefix) => key.startsWith(prefix))) throw notFound('文件不存在');
    let answer: Response;
    try {
      answer = await serveObject(key, c.req.method, c.req.header('range'), c.req.header('if-range'));
    } catch (error) {
      if (error instanceof StorageKeyError) throw notFound('文件不存在');
      throw error;
    }
    return answer;
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
