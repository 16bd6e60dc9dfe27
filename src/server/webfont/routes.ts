import { Hono } from 'hono';
import { compress } from 'hono/compress';
import { z } from 'zod';
import { notFound, ok } from '../http/envelope.ts';
import { validate } from '../http/validate.ts';
import { subsetAnswerCache } from './answers.ts';
import { webfontCss, webfontSlice } from './css.ts';
import { subsetFonts } from './subset.ts';

const subsetRequest = z
  .array(
    z.object({
      gno: z.string().trim().min(1).max(100).meta({ label: '字体编号' }),
      text: z.string().max(5000).meta({ label: '预览文字' }),
    }),
  )
  .meta({ label: '字体列表' });

const subsetQuery = z.object({
  embed: z.enum(['woff2'], '只能是 woff2').optional().meta({ label: '内嵌字体（embed）' }),
});

const cssQuery = z.object({
  family: z.string().trim().min(1, '请指定字体').max(100).meta({ label: '字体（family）' }),
  weight: z.string().max(60).optional().meta({ label: '字重（weight）' }),
});

const sliceParams = z.object({
  fontId: z.coerce.number().int().positive().max(2_147_483_647),
  version: z.string().regex(/^[0-9a-f]{12}$/),
  file: z.string().regex(/^\d{1,5}\.woff2$/),
});

// Web fonts are used from other sites, so both the stylesheet and the slices allow any origin.
const CROSS_ORIGIN = { 'Access-Control-Allow-Origin': '*', 'Timing-Allow-Origin': '*' };

/**
 * The web-font service, mounted at /webfont: the subset service of SPEC §7 (`POST /http` with
 * `[{ gno, text }]`, optionally `?embed=woff2`), and the hosted web fonts: `GET /css?family&weight` (a stylesheet of
 * unicode-range slices) and `GET /slice/<fontId>/<version>/<n>.woff2` (one slice, immutable).
 */
export function webfontRoutes(): Hono {
  const routes = new Hono();
  // `?embed=woff2` puts each WOFF2 into the answer: the site's previews then need one request, not two.
  routes.post(
    '/http',
    validate('query', subsetQuery),
    subsetAnswerCache(),
    validate('json', subsetRequest),
    async (c) => {
      const embed = c.req.valid('query').embed === 'woff2';
      return c.json(ok(await subsetFonts(c.req.valid('json'), { embed })));
    },
  );
  routes.get('/css', compress(), validate('query', cssQuery), async (c) => {
    const { family, weight } = c.req.valid('query');
    const css = await webfontCss(family, weight);
    return c.body(css, 200, {
      ...CROSS_ORIGIN,
      'Content-Type': 'text/css; charset=utf-8',
      // Short: the stylesheet names the current slice versions, which change when a font does.
      'Cache-Control': 'public, max-age=86400, stale-while-revalidate=604800',
    });
  });
  routes.get('/slice/:fontId/:version/:file', async (c) => {
    const parsed = sliceParams.safeParse(c.req.param());
    if (!parsed.success) throw notFound('字体切片不存在');
    const { fontId, version, file } = parsed.data;
    const bytes = await webfontSlice(fontId, version, Number.parseInt(file, 10));
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
      ...CROSS_ORIGIN,
      'Content-Type': 'font/woff2',
      'Content-Length': String(bytes.byteLength),
      'Cache-Control': 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
    });
  });
  return routes;
}
