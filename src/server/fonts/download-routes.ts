import { Hono } from 'hono';
import { z } from 'zod';
import { type AccountResolver, clientIp, sessionAccount } from '../auth/current-account.ts';
import { notFound } from '../http/envelope.ts';
import { validate } from '../http/validate.ts';
import { log } from '../log.ts';
import { answerObject, requestedRange } from '../storage/http-range.ts';
import type { Clock } from './download-links.ts';
import { openDownload, recordDownload } from './downloads.ts';

const linkQuery = z.object({
  expires: z.string().max(20).optional().meta({ label: '有效期' }),
  signature: z.string().max(100).optional().meta({ label: '签名' }),
});

/** `attachment` with an ASCII fallback and the UTF-8 name of RFC 5987/6266 (Chinese family names). */
export function contentDisposition(fileName: string, asciiName: string): string {
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${asciiName.replace(/["\\]/g, '_')}"; filename*=UTF-8''${encoded}`;
}

/**
 * Font downloads, mounted at /api/v1 (SPEC §7): GET /web/{gno}/download?expires&signature streams a
 * child font's TTF or a family's zip. Open to visitors (the fonts are OFL); see font-download.ts.
 */
export function downloadRoutes(options: { now?: Clock; account?: AccountResolver } = {}): Hono {
  const resolveAccount = options.account ?? sessionAccount;
  const routes = new Hono();
  routes.get('/web/:gno/download', validate('query', linkQuery), async (c) => {
    const gno = c.req.param('gno');
    const { target, stream } = await openDownload(gno, c.req.valid('query'), options.now ? { now: options.now } : {});
    // A resumed download (a range that does not start at the first byte) is the same download.
    const range = requestedRange(c.req.header('range'));
    if (c.req.method === 'GET' && (!range || ('start' in range && range.start === 0))) {
      const accountId = await resolveAccount(c).catch(() => null);
      // The file goes out even if the bookkeeping fails; the failure is only logged.
      await recordDownload(target, { accountId, ip: clientIp(c) }).catch((error: unknown) =>
        log().error({ err: error, gno }, 'download not recorded'),
      );
    }
    const headers: Record<string, string> = {
      'Content-Type': stream.contentType,
      'Content-Disposition': contentDisposition(stream.fileName, stream.asciiName),
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    };
    return answerObject(
      c,
      stream.open,
      // Last-Modified lets a browser resume the download with If-Range.
      (object) => ({ ...headers, 'Last-Modified': object.mtime.toUTCString() }),
      () => notFound('字体文件暂时无法下载，请稍后再试'),
    );
  });
  return routes;
}
