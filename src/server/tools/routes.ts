import { Readable } from 'node:stream';
import { Hono } from 'hono';
import { z } from 'zod';
import { contentDisposition } from '../fonts/download-routes.ts';
import { ok } from '../http/envelope.ts';
import { validate } from '../http/validate.ts';
import { toolClient } from './clients.ts';
import { convertRequest, startConversion } from './convert.ts';
import { identifyRoutes } from './identify/routes.ts';
import { findJob, openJobFile } from './jobs.ts';
import { admitUpload } from './limits.ts';
import { pixelFontRequest, pixelPreviewRequest, previewPixelFont, startPixelFont } from './pixel.ts';
import { pixelProjectRoutes } from './pixel-projects.ts';
import { startSubset, subsetRequest } from './subset.ts';
import { receiveUpload } from './uploads.ts';
import { wordCloudRoutes } from './wordcloud/routes.ts';

const jobParams = z.object({ jobId: z.string().max(64).meta({ label: '任务编号' }) });

/**
 * The font tools (SPEC §7 Tools), mounted at /tools/api: POST upload (a temporary font file), POST
 * convert, POST subset and POST pixel (start a job), POST pixel/preview (a line drawn as the pixel
 * font will look, answered at once), GET jobs/:jobId (its state and, when done, its files) and
 * GET files/:token/:name (an output, as an attachment). The word cloud's calls are under
 * /word-cloud (wordcloud/routes.ts), font identification's under /identify (identify/routes.ts).
 */
export function toolRoutes(): Hono {
  const routes = new Hono();
  routes.post('/upload', async (c) => {
    admitUpload(await toolClient(c));
    return c.json(ok(await receiveUpload(c.req.raw), '上传成功'));
  });
  routes.post('/convert', validate('json', convertRequest), async (c) =>
    c.json(ok(await startConversion(c.req.valid('json'), await toolClient(c)), '已开始转换')),
  );
  routes.post('/subset', validate('json', subsetRequest), async (c) =>
    c.json(ok(await startSubset(c.req.valid('json'), await toolClient(c)), '已开始生成')),
  );
  routes.post('/pixel/preview', validate('json', pixelPreviewRequest), async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(ok(await previewPixelFont(c.req.valid('json'), await toolClient(c))));
  });
  routes.post('/pixel', validate('json', pixelFontRequest), async (c) =>
    c.json(ok(await startPixelFont(c.req.valid('json'), await toolClient(c)), '已开始生成像素字体')),
  );
  routes.route('/', pixelProjectRoutes());
  routes.route('/word-cloud', wordCloudRoutes());
  routes.route('/identify', identifyRoutes());
  routes.get('/jobs/:jobId', validate('param', jobParams), async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(ok(await findJob(c.req.valid('param').jobId)));
  });
  routes.get('/files/:token/:name', async (c) => {
    const file = await openJobFile(c.req.param('token'), c.req.param('name'));
    const ascii = file.name.replace(/[^\x20-\x7e]/g, '_');
    return c.body(Readable.toWeb(file.body) as ReadableStream, 200, {
      'Content-Type': file.mime,
      'Content-Length': String(file.size),
      'Content-Disposition': contentDisposition(file.name, ascii),
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    });
  });
  return routes;
}
