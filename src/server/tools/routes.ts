import { Hono } from 'hono';
import { z } from 'zod';
import { contentDisposition } from '../fonts/download-routes.ts';
import { notFound, ok } from '../http/envelope.ts';
import { validate } from '../http/validate.ts';
import { answerObject } from '../storage/http-range.ts';
import { storage } from '../storage/index.ts';
import { toolClient } from './clients.ts';
import { convertRequest, startConversion } from './convert.ts';
import { identifyRoutes } from './identify/routes.ts';
import { findJob, findJobFile } from './jobs.ts';
import { admitUpload } from './limits.ts';
import { pixelFontRequest, pixelPreviewRequest, previewPixelFont, startPixelFont } from './pixel.ts';
import { pixelProjectRoutes } from './pixel-projects.ts';
import { startSubset, subsetRequest } from './subset.ts';
import { receiveUpload } from './uploads.ts';
import { wordCloudRoutes } from './wordcloud/routes.ts';

/** How long a presigned link to an output in a bucket works: long enough to start the download. */
const DIRECT_DOWNLOAD_SECONDS = 300;

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
    await admitUpload(await toolClient(c));
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
    const file = await findJobFile(c.req.param('token'), c.req.param('name'));
    const disposition = contentDisposition(file.name, file.name.replace(/[^\x20-\x7e]/g, '_'));
    // A browser's download (a navigation) of an output kept in a bucket goes straight to the bucket
    // with a short-lived presigned link, so the bytes do not pass through this server. A page's own
    // requests (the subset tool loads its output as a font) and other clients are answered here:
    // the page's policy allows fonts and fetches from this origin only.
    if (c.req.header('sec-fetch-dest') === 'document') {
      const direct = await storage().presignGet(file.key, {
        disposition,
        type: file.mime,
        expiresSeconds: DIRECT_DOWNLOAD_SECONDS,
        now: new Date(),
      });
      if (direct) {
        c.header('Cache-Control', 'private, no-store');
        return c.redirect(direct, 302);
      }
    }
    return answerObject(
      c,
      (options) => storage().get(file.key, options),
      (object) => ({
        'Content-Type': file.mime,
        'Content-Disposition': disposition,
        'Cache-Control': 'private, no-store',
        'Last-Modified': object.mtime.toUTCString(),
        'X-Content-Type-Options': 'nosniff',
      }),
      () => notFound('文件不存在或已过期，请重新转换'),
    );
  });
  return routes;
}
