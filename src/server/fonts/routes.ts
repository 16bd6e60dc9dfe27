import { Hono } from 'hono';
import { z } from 'zod';
import { COVERAGE_MAX_CHARACTERS } from '../../contract/fonts.ts';
import { cachedRead } from '../http/answer-cache.ts';
import { ok } from '../http/envelope.ts';
import { listChoice, pageQuery, validate } from '../http/validate.ts';
import { listFontFamilies } from './catalogue.ts';
import { fontCoverage } from './coverage.ts';
import { getFontDetail } from './detail.ts';
import { fontDictionary } from './dictionary.ts';
import type { Clock } from './download-links.ts';
import { createDownloadLink } from './downloads.ts';
import { glyphDetail } from './glyph-detail.ts';
import { glyphPage } from './glyphs.ts';

/** An optional text filter: blank counts as absent. */
const optionalText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((value) => value || undefined)
    .meta({ label });

/** The query of GET /fontOverride/getFontList. */
export const fontListQuery = pageQuery.extend({
  keyword: optionalText(50, '关键词'),
  category: optionalText(32, '字体分类'),
  script: optionalText(32, '字体类型'),
  license: optionalText(32, '授权方式'),
  weights: listChoice(['multi', 'single'], '字重数量'),
  commercialFree: listChoice(['true', 'false'], '免费商用')
    .transform((value) => (value === undefined ? undefined : value === 'true'))
    .meta({ label: '免费商用' }),
  sort: listChoice(['downloads', 'newest', 'name'], '排序方式'),
});

const gnoQuery = z.object({
  gno: z.string().trim().min(1).max(100).meta({ label: '字体编号' }),
});

/** The query of GET /font/get-download-url: a weight or a family, and for a weight its format. */
const downloadQuery = gnoQuery.extend({ format: listChoice(['ttf', 'woff2'], '文件格式') });

/** The query of GET /font/glyphs: a font, a page of its characters, and optionally one coverage set. */
export const glyphQuery = gnoQuery.extend({
  current: pageQuery.shape.current,
  size: z.coerce.number().int().min(1).max(500).default(200).meta({ label: '每页字数' }),
  set: listChoice(['all', 'gb2312', 'tongyong', 'big5', 'latin'], '字符集'),
});

/** The body of POST /font/coverage; counting its characters is the handler's (coverage.ts). */
export const coverageBody = z.object({
  text: z
    .string()
    .max(200_000, `一次最多检查 ${COVERAGE_MAX_CHARACTERS} 个字`)
    .default('')
    .meta({ label: '要检查的字' }),
});

/** The query of GET /font/glyph: a face and one character of it. */
export const glyphDetailQuery = gnoQuery.extend({
  char: z.string().min(1, '请输入要查的字').max(16).meta({ label: '要查的字' }),
});

/**
 * The font library API, mounted at /web/api (SPEC §7 Fonts): the list, the dictionary, a family's
 * detail, its glyphs page by page, one glyph zoomed with its metrics, which families have every
 * character of a text, and signed download links. `now` is the links' clock (tests).
 */
export function fontRoutes(options: { now?: Clock } = {}): Hono {
  const routes = new Hono();
  routes.get(
    '/fontOverride/getFontList',
    cachedRead({ tags: ['font'] }),
    validate('query', fontListQuery),
    async (c) => {
      return c.json(ok(await listFontFamilies(c.req.valid('query'))));
    },
  );
  routes.get('/dict/font-default', cachedRead({ tags: ['font'] }), async (c) => c.json(ok(await fontDictionary())));
  routes.get('/font/getFontDetail', cachedRead({ tags: ['font', 'album'] }), validate('query', gnoQuery), async (c) =>
    c.json(ok(await getFontDetail(c.req.valid('query').gno))),
  );
  routes.get(
    '/font/glyphs',
    cachedRead({ tags: ['font'], maxAgeMs: 10 * 60_000 }),
    validate('query', glyphQuery),
    async (c) => c.json(ok(await glyphPage(c.req.valid('query')))),
  );
  routes.get(
    '/font/glyph',
    cachedRead({ tags: ['font'], maxAgeMs: 10 * 60_000 }),
    validate('query', glyphDetailQuery),
    async (c) => {
      const query = c.req.valid('query');
      return c.json(ok(await glyphDetail(query.gno, query.char)));
    },
  );
  routes.post('/font/coverage', validate('json', coverageBody), async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(ok(await fontCoverage(c.req.valid('json').text)));
  });
  routes.get('/font/get-download-url', validate('query', downloadQuery), async (c) => {
    const { gno, format } = c.req.valid('query');
    const link = await createDownloadLink(gno, { format, ...(options.now ? { now: options.now } : {}) });
    c.header('Cache-Control', 'no-store');
    return c.json(ok(link));
  });
  return routes;
}
