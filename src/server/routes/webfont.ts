import { Hono } from 'hono';
import { z } from 'zod';
import { ok } from '../http/envelope.ts';
import { validate } from '../http/validate.ts';
import { subsetFonts } from '../services/subset.ts';

const subsetRequest = z
  .array(
    z.object({
      gno: z.string().trim().min(1).max(100).meta({ label: '字体编号' }),
      text: z.string().max(5000).meta({ label: '预览文字' }),
    }),
  )
  .meta({ label: '字体列表' });

/** The subset service of SPEC §7: `POST /webfont/http` with `[{ gno, text }]`. */
export function webfontRoutes(): Hono {
  const routes = new Hono();
  routes.post('/http', validate('json', subsetRequest), async (c) =>
    c.json(ok(await subsetFonts(c.req.valid('json')))),
  );
  return routes;
}
