import { Hono } from 'hono';
import { z } from 'zod';
import { contentDisposition } from '../fonts/download-routes.ts';
import { cachedRead } from '../http/answer-cache.ts';
import { notFound, ok } from '../http/envelope.ts';
import { listChoiceOr, pageQuery, validate } from '../http/validate.ts';
import { answerObject } from '../storage/http-range.ts';
import { createZipLink, openZip, verifyZipLink } from './group-zip.ts';
import { FONT_GROUP_TYPES, getFontGroup, listFontGroups } from './groups.ts';
import { idParam } from './params.ts';

const type = listChoiceOr(FONT_GROUP_TYPES, 'album', '类型');
const listQuery = pageQuery.extend({ type });
const idQuery = z.object({ id: idParam('专辑编号'), type });
const zipQuery = idQuery.extend({
  expires: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).meta({ label: '有效期' }),
  signature: z.string().min(1).max(100).meta({ label: '签名' }),
});

// Albums and collections list fonts, so a font change purges them too.
const GROUP_TAGS = ['album', 'heji', 'font'];

/**
 * Albums (专辑) and collections (heji 合集), mounted at /web/api (SPEC §7 Albums):
 * web-font-collection/selectPage, getDetailById and download-font-zip-url, plus the signed
 * download-font-zip that streams the zip. `type=heji` selects collections; albums are the default.
 */
export function albumRoutes(options: { now?: () => number } = {}): Hono {
  const now = options.now ?? (() => Date.now());
  const routes = new Hono();
  routes.get(
    '/web-font-collection/selectPage',
    cachedRead({ tags: GROUP_TAGS }),
    validate('query', listQuery),
    async (c) => c.json(ok(await listFontGroups(c.req.valid('query')))),
  );
  routes.get(
    '/web-font-collection/getDetailById',
    cachedRead({ tags: GROUP_TAGS }),
    validate('query', idQuery),
    async (c) => {
      const { type: groupType, id } = c.req.valid('query');
      const group = await getFontGroup(groupType, id);
      if (!group) throw notFound(groupType === 'album' ? '专辑不存在或已下架' : '合集不存在或已下架');
      return c.json(ok(group));
    },
  );
  routes.get('/web-font-collection/download-font-zip-url', validate('query', idQuery), async (c) => {
    const { type: groupType, id } = c.req.valid('query');
    return c.json(ok(await createZipLink(groupType, id, now())));
  });
  routes.get('/web-font-collection/download-font-zip', validate('query', zipQuery), async (c) => {
    const { type: groupType, id, expires, signature } = c.req.valid('query');
    verifyZipLink(groupType, id, expires, signature, now());
    const zip = await openZip(groupType, id);
    // Content-Length and Range: the browser shows the download's progress and can resume it.
    return answerObject(
      c,
      zip.open,
      (object) => ({
        'Content-Type': 'application/zip',
        'Content-Disposition': contentDisposition(zip.fileName, `${groupType}-${id}.zip`),
        'Cache-Control': 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
        'Last-Modified': object.mtime.toUTCString(),
      }),
      () => notFound('专辑不存在或已下架'),
    );
  });
  return routes;
}
