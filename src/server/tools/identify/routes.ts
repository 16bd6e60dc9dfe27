import { Hono } from 'hono';
import { ok } from '../../http/envelope.ts';
import { validate } from '../../http/validate.ts';
import { toolClient } from '../clients.ts';
import { admitUpload } from '../limits.ts';
import { receivePicture } from './pictures.ts';
import { matchRequest, pictureView, readRequest } from './requests.ts';
import { findPictureGlyphs, identifyFont, readCharacters } from './service.ts';

/**
 * The font-identification calls, mounted at /tools/api/identify: POST picture (a temporary upload),
 * POST glyphs (SPEC §7 workflow task 125: the glyph boxes of the picture with suggested
 * characters), POST characters (suggestions for boxes the person changed) and POST match (the
 * library's faces ranked against the confirmed glyphs).
 */
export function identifyRoutes(): Hono {
  const routes = new Hono();
  routes.post('/picture', async (c) => {
    await admitUpload(await toolClient(c));
    return c.json(ok(await receivePicture(c.req.raw), '上传成功'));
  });
  routes.post('/glyphs', validate('json', pictureView), async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(ok(await findPictureGlyphs(c.req.valid('json'), await toolClient(c))));
  });
  routes.post('/characters', validate('json', readRequest), async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(ok({ suggestions: await readCharacters(c.req.valid('json'), await toolClient(c)) }));
  });
  routes.post('/match', validate('json', matchRequest), async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(ok(await identifyFont(c.req.valid('json'), await toolClient(c))));
  });
  return routes;
}
