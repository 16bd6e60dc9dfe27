import { Hono } from 'hono';
import { z } from 'zod';
import { ok } from '../http/envelope.ts';
import { pageQuery, validate } from '../http/validate.ts';
import { listFontFamilies } from '../services/fonts.ts';

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
});

/** The font library API, mounted at /web/api: GET /fontOverride/getFontList (SPEC §7 Fonts). */
export function fontRoutes(): Hono {
  const routes = new Hono();
  routes.get('/fontOverride/getFontList', validate('query', fontListQuery), async (c) => {
    return c.json(ok(await listFontFamilies(c.req.valid('query'))));
  });
  return routes;
}
