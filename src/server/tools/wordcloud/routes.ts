import { Hono } from 'hono';
import { z } from 'zod';
import { CLOUD_SAMPLE_WIDTHS } from '../../../contract/word-cloud.ts';
import { optionalId } from '../../content/params.ts';
import { notFound, ok } from '../../http/envelope.ts';
import { listChoiceOr, validate } from '../../http/validate.ts';
import { toolClient } from '../clients.ts';
import { admitUpload } from '../limits.ts';
import { receiveMask } from './masks.ts';
import { cloudRequest, cloudWordsRequest } from './requests.ts';
import { cloudWords, renderCloud, renderSample, renderSampleWebp } from './service.ts';
import { templateImages, templateSvg, templateTypes } from './templates.ts';

const typesQuery = z.object({
  type: listChoiceOr(['font_cloud'], 'font_cloud', '模板类型'),
  current: z.coerce.number().int().min(1).default(1).meta({ label: '页码' }),
  size: z.coerce.number().int().min(1).max(100).default(100).meta({ label: '每页条数' }),
});
const sampleQuery = z.object({
  w: listChoiceOr(CLOUD_SAMPLE_WIDTHS, '1000', '图片宽度'),
});
const imagesQuery = z.object({
  typeId: optionalId('模板类型'),
});

/** The report headers: counts, and the words left out (percent-encoded JSON, headers are ASCII). */
function reportHeaders(report: { placed: number; dropped: string[]; missing: string[] }): Record<string, string> {
  return {
    'X-Cloud-Placed': String(report.placed),
    'X-Cloud-Dropped': encodeURIComponent(JSON.stringify(report.dropped.slice(0, 100))),
    'X-Cloud-Missing': encodeURIComponent(JSON.stringify(report.missing.slice(0, 100))),
    'Access-Control-Expose-Headers': 'X-Cloud-Placed, X-Cloud-Dropped, X-Cloud-Missing',
  };
}

/**
 * The word-cloud calls (SPEC §7 Word cloud), mounted at /tools/api/word-cloud: GET template-types
 * and GET images (the shape templates), GET images/:id.svg (one shape), POST words (text cut into
 * weighted words), POST mask (a picture to use as the shape) and POST / (the cloud itself, answered
 * as a PNG or SVG file).
 */
export function wordCloudRoutes(): Hono {
  const routes = new Hono();
  routes.get('/template-types', validate('query', typesQuery), (c) => {
    const { current, size } = c.req.valid('query');
    const all = templateTypes();
    const records = all.slice((current - 1) * size, current * size);
    c.header('Cache-Control', 'public, max-age=3600');
    return c.json(ok({ records, total: all.length, current, size }));
  });
  routes.get('/images', validate('query', imagesQuery), (c) => {
    c.header('Cache-Control', 'public, max-age=3600');
    return c.json(ok(templateImages(c.req.valid('query').typeId)));
  });
  routes.get('/images/:file', (c) => {
    const match = /^(\d{1,6})\.svg$/.exec(c.req.param('file'));
    const svg = match ? templateSvg(Number(match[1])) : undefined;
    if (!svg) throw notFound('没有这个形状模板');
    return c.body(svg, 200, {
      'Content-Type': 'image/svg+xml; charset=utf-8',
      'Cache-Control': 'public, max-age=86400',
      'X-Content-Type-Options': 'nosniff',
    });
  });
  // The sample is the same for every visitor until the library's most downloaded family changes.
  routes.get('/sample.png', async (c) => {
    const result = await renderSample(await toolClient(c));
    return c.body(Buffer.from(result.bytes), 200, {
      'Content-Type': result.mime,
      'Content-Length': String(result.bytes.byteLength),
      'Cache-Control': 'public, max-age=600',
      'X-Content-Type-Options': 'nosniff',
    });
  });
  routes.get('/sample.webp', validate('query', sampleQuery), async (c) => {
    const bytes = await renderSampleWebp(await toolClient(c), Number(c.req.valid('query').w));
    return c.body(new Uint8Array(bytes), 200, {
      'Content-Type': 'image/webp',
      'Content-Length': String(bytes.byteLength),
      'Cache-Control': 'public, max-age=600',
      'X-Content-Type-Options': 'nosniff',
    });
  });
  routes.post('/words', validate('json', cloudWordsRequest), async (c) => {
    const { text, limit } = c.req.valid('json');
    c.header('Cache-Control', 'no-store');
    return c.json(ok({ words: await cloudWords(text, limit, await toolClient(c)) }));
  });
  routes.post('/mask', async (c) => {
    await admitUpload(await toolClient(c));
    return c.json(ok(await receiveMask(c.req.raw), '上传成功'));
  });
  routes.post('/', validate('json', cloudRequest), async (c) => {
    const body = c.req.valid('json');
    const result = await renderCloud(body, await toolClient(c));
    const name = `wordcloud.${body.format === 'png' ? 'png' : 'svg'}`;
    return c.body(Buffer.from(result.bytes), 200, {
      'Content-Type': result.mime,
      'Content-Length': String(result.bytes.byteLength),
      'Content-Disposition': `inline; filename="${name}"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      ...reportHeaders(result),
    });
  });
  return routes;
}
