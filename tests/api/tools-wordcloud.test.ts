import { and, eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FontResource } from '../../src/contract/fonts.ts';
import {
  boldestFace,
  CLOUD_SAMPLE,
  CLOUD_SAMPLE_SRCSET,
  CLOUD_SAMPLE_URL,
  CLOUD_SAMPLE_WIDTHS,
  type CloudTemplateImage,
  type CloudTemplateType,
  type CloudWord,
  type UploadedMask,
} from '../../src/contract/word-cloud.ts';
import { fontFamilies, fonts } from '../../src/server/db/schema/index.ts';
import { toolsPool } from '../../src/server/tools/runtime.ts';
import { call, json, type LibraryFixture } from '../helpers/font-library.ts';
import { closeToolsApp, openToolsApp, storedFiles } from '../helpers/tools.ts';
import { pngStats } from '../helpers/word-cloud.ts';

let library: LibraryFixture;
let app: Hono;
let noto: number;

// Words the fixture fonts can draw, repeated so that they carry weights.
const TEXT = '人民 地区 文化 历史 公司 市场 工业 中心 人口 方式 专业 中央 水平 艺术 土地'
  .split(' ')
  .map((word, i) => `${word}。`.repeat(16 - i))
  .join('');

beforeAll(async () => {
  ({ library, app } = await openToolsApp('tools-wordcloud'));
  const [row] = await library.db
    .select({ id: fonts.id })
    .from(fonts)
    .innerJoin(fontFamilies, eq(fonts.familyId, fontFamilies.id))
    .where(and(eq(fontFamilies.gno, 'noto-sans-sc'), eq(fonts.weight, 700)));
  noto = row?.id as number;
});
afterAll(() => closeToolsApp(library));

const draw = (body: Record<string, unknown>) =>
  app.request(
    '/tools/api/word-cloud',
    json('POST', { text: TEXT, font: { fontId: noto }, width: 600, height: 600, ...body }),
  );

function uploadMask(bytes: Uint8Array, name: string) {
  const form = new FormData();
  form.append('file', new Blob([bytes as Uint8Array<ArrayBuffer>]), name);
  return call<UploadedMask>(app, '/tools/api/word-cloud/mask', { method: 'POST', body: form });
}

describe('word-cloud templates', () => {
  test('answers at least four template types and 24 shapes, each an SVG that decodes', async () => {
    const types = await call<{ records: CloudTemplateType[] }>(
      app,
      '/tools/api/word-cloud/template-types?type=font_cloud&current=1&size=100',
    );
    expect(types.status).toBe(200);
    expect(types.data.records.length).toBeGreaterThanOrEqual(4);
    const images = await call<CloudTemplateImage[]>(app, '/tools/api/word-cloud/images');
    expect(images.data.length).toBeGreaterThanOrEqual(24);
    for (const type of types.data.records) expect(images.data.some((image) => image.typeId === type.id)).toBe(true);
    const ofType = await call<CloudTemplateImage[]>(
      app,
      `/tools/api/word-cloud/images?typeId=${types.data.records[0]?.id}`,
    );
    expect(ofType.data.every((image) => image.typeId === types.data.records[0]?.id)).toBe(true);
    for (const image of images.data) {
      const res = await app.request(image.url);
      expect(res.headers.get('content-type')).toContain('image/svg+xml');
      const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect(meta.width).toBeGreaterThan(0);
    }
    expect((await app.request('/tools/api/word-cloud/images/999.svg')).status).toBe(404);
  });
});

describe('POST /tools/api/word-cloud', () => {
  test('cuts text into weighted words, strongest first', async () => {
    const answer = await call<{ words: CloudWord[] }>(
      app,
      '/tools/api/word-cloud/words',
      json('POST', { text: `${TEXT}字体设计。字体设计。`, limit: 20 }),
    );
    expect(answer.status).toBe(200);
    expect(answer.data.words[0]).toEqual({ text: '人民', weight: 1 });
    expect(answer.data.words.map((word) => word.text)).toContain('字体设计');
  });

  test('answers the cloud as a PNG, with what it placed in the headers', async () => {
    const res = await draw({ shape: { kind: 'template', id: 103 } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(Number(res.headers.get('x-cloud-placed'))).toBe(15);
    const stats = await pngStats(new Uint8Array(await res.arrayBuffer()));
    expect([stats.width, stats.height]).toEqual([600, 600]);
    expect(stats.inked).toBeGreaterThan(2_000);
  });

  test('draws a cloud once: the same request again is answered from memory, another seed is drawn anew', async () => {
    const run = vi.spyOn(toolsPool(), 'run');
    try {
      const body = { shape: { kind: 'template', id: 101 }, seed: 4242 };
      const first = new Uint8Array(await (await draw(body)).arrayBuffer());
      const again = await draw(body);
      expect(again.status).toBe(200);
      expect(Number(again.headers.get('x-cloud-placed'))).toBe(15);
      expect(new Uint8Array(await again.arrayBuffer())).toEqual(first);
      const other = new Uint8Array(await (await draw({ ...body, seed: 4243 })).arrayBuffer());
      expect(other).not.toEqual(first);
      const clouds = run.mock.calls.filter(([task]) => task.kind === 'cloud');
      expect(clouds).toHaveLength(2);
    } finally {
      run.mockRestore();
    }
  });

  test('draws the sample the page opens on, and the page script’s first request is that same drawing', async () => {
    const sample = await app.request('/tools/api/word-cloud/sample.png');
    expect(sample.status).toBe(200);
    expect(sample.headers.get('content-type')).toBe('image/png');
    const bytes = new Uint8Array(await sample.arrayBuffer());
    const stats = await pngStats(bytes);
    expect([stats.width, stats.height]).toEqual([CLOUD_SAMPLE.width, CLOUD_SAMPLE.height]);
    expect(stats.inked).toBeGreaterThan(10_000);

    // What WordCloudTool sends once it has cut the sample and picked the default face.
    const run = vi.spyOn(toolsPool(), 'run');
    try {
      const list = await call<{ records: FontResource[] }>(app, '/web/api/fontOverride/getFontList?current=1&size=1');
      const face = boldestFace(list.data.records[0]?.childFontResource ?? []);
      const cut = await call<{ words: CloudWord[] }>(
        app,
        '/tools/api/word-cloud/words',
        json('POST', { text: CLOUD_SAMPLE.text, limit: CLOUD_SAMPLE.limit }),
      );
      const first = await app.request(
        '/tools/api/word-cloud',
        json('POST', {
          words: cut.data.words,
          font: { fontId: face?.id },
          shape: { kind: 'template', id: CLOUD_SAMPLE.templateId },
          threshold: CLOUD_SAMPLE.threshold / 100,
          orientation: CLOUD_SAMPLE.orientation,
          verticalText: CLOUD_SAMPLE.verticalText,
          colors: CLOUD_SAMPLE.palette,
          background: CLOUD_SAMPLE.background,
          width: CLOUD_SAMPLE.width,
          height: CLOUD_SAMPLE.height,
          seed: CLOUD_SAMPLE.seed,
          format: 'png',
        }),
      );
      expect(new Uint8Array(await first.arrayBuffer())).toEqual(bytes);
      expect(run.mock.calls.filter(([task]) => task.kind === 'cloud')).toHaveLength(0);
    } finally {
      run.mockRestore();
    }
  });

  test('sends the sample as a WebP at the widths the page lists, a fraction of the PNG, and refuses others', async () => {
    const png = new Uint8Array(await (await app.request('/tools/api/word-cloud/sample.png')).arrayBuffer());
    for (const width of CLOUD_SAMPLE_WIDTHS) {
      const answer = await app.request(`/tools/api/word-cloud/sample.webp?w=${width}`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('image/webp');
      const bytes = new Uint8Array(await answer.arrayBuffer());
      const meta = await sharp(bytes).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', Number(width), Number(width)]);
      expect(bytes.byteLength).toBeLessThan(png.byteLength / 2);
      // The same picture: the WebP's ink, both drawn at 100 px, lies where the PNG's does.
      const shrink = (image: Uint8Array) => sharp(image).resize(100, 100).greyscale().raw().toBuffer();
      const [a, b] = [await shrink(png), await shrink(bytes)];
      let differing = 0;
      for (let i = 0; i < a.length; i++) if (Math.abs((a[i] ?? 0) - (b[i] ?? 0)) > 48) differing++;
      expect(differing / a.length).toBeLessThan(0.02);
    }
    expect(CLOUD_SAMPLE_SRCSET).toContain(`${CLOUD_SAMPLE_URL} ${CLOUD_SAMPLE.width}w`);
    const refused = await app.request('/tools/api/word-cloud/sample.webp?w=3000');
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('图片宽度');
  });

  test('answers SVG with the words as text in the chosen font, or as outlines', async () => {
    const text = await draw({ format: 'svg', shape: { kind: 'character', character: '中' } });
    expect(text.headers.get('content-type')).toBe('image/svg+xml');
    const svg = await text.text();
    expect(svg).toContain('@font-face');
    expect(svg).toContain('人民');
    const outlines = await (await draw({ format: 'svg-outlines' })).text();
    expect(outlines).not.toContain('<text');
    expect(outlines).toContain('<path');
  });

  test('takes an uploaded picture as the shape and colours words from it', async () => {
    const red = await sharp({
      create: { width: 300, height: 300, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .composite([
        {
          input: Buffer.from(
            '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300"><circle cx="150" cy="150" r="140" fill="#c00000"/></svg>',
          ),
        },
      ])
      .png()
      .toBuffer();
    const mask = await uploadMask(new Uint8Array(red), 'circle.png');
    expect(mask.status).toBe(200);
    const res = await draw({
      shape: { kind: 'picture', maskId: mask.data.maskId },
      colors: 'picture',
      background: 'transparent',
    });
    expect(res.status).toBe(200);
    const { data, info } = await sharp(Buffer.from(await res.arrayBuffer()))
      .raw()
      .toBuffer({ resolveWithObject: true });
    let reddish = 0;
    let solid = 0;
    for (let i = 0; i < info.width * info.height; i++) {
      if ((data[i * 4 + 3] as number) < 250) continue;
      solid++;
      if ((data[i * 4] as number) > 150 && (data[i * 4 + 1] as number) < 60) reddish++;
    }
    expect(solid).toBeGreaterThan(1_000);
    expect(reddish / solid).toBeGreaterThan(0.9);
  });

  test.each([
    ['empty text', { text: '   ' }, 400, '请粘贴文字或填写词表'],
    ['text of punctuation only', { text: '，。！？……' }, 400, '没有可用的词'],
    ['text over 50 000 characters', { text: '字'.repeat(50_001) }, 400, '文字最多 50000 个字符'],
    ['an unknown font', { font: { fontId: 999_999 } }, 404, '字体库中没有编号为 999999 的字体'],
    ['an unknown template', { shape: { kind: 'template', id: 999 } }, 400, '没有编号为 999 的形状模板'],
    [
      'an expired picture',
      { shape: { kind: 'picture', maskId: '00000000-0000-4000-8000-000000000000' } },
      404,
      '形状图片不存在或已过期',
    ],
    [
      'two characters as the shape',
      { shape: { kind: 'character', character: '中国' } },
      400,
      '形状文字只能是一个汉字或字母',
    ],
    ['a canvas of 5000 px', { width: 5000 }, 400, '宽度最多 4000 像素'],
    ['a bad colour', { background: 'red' }, 400, '背景色格式应为 #RRGGBB'],
  ])('refuses %s with a Chinese message', async (_name, body, status, message) => {
    const res = await draw(body);
    expect(res.status).toBe(status);
    expect(((await res.json()) as { message: string }).message).toContain(message);
  });

  test('refuses a megabyte of text with a Chinese message before reading it all', async () => {
    const res = await draw({ text: '字'.repeat(400_000) });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { message: string }).message).toContain('请求内容过大');
  });

  test('refuses a picture that is not an image or is 30000 px wide, and keeps nothing of it', async () => {
    const before = await storedFiles(library.dataDir, 'tools/uploads');
    const text = await uploadMask(new Uint8Array(Buffer.from('not an image at all')), 'shape.png');
    expect(text.status).toBe(400);
    expect(text.message).toContain('形状图片无法读取');
    const wide = await sharp({ create: { width: 30_000, height: 2, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    const huge = await uploadMask(new Uint8Array(wide), 'wide.png');
    expect(huge.status).toBe(400);
    expect(huge.message).toContain('形状图片最大 8000 × 8000 像素，这张是 30000 × 2');
    expect(await storedFiles(library.dataDir, 'tools/uploads')).toEqual(before);
  });
});
