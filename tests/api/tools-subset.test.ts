import fs from 'node:fs';
import { eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fonts } from '../../src/server/db/schema/index.ts';
import { call, json, type LibraryFixture } from '../helpers/font-library.ts';
import { cmapByFontTools, featuresByFontTools, passesOts } from '../helpers/font-oracle.ts';
import { closeToolsApp, type JobAnswer, openToolsApp, uploadFont, waitForJob } from '../helpers/tools.ts';

const TTF = new Uint8Array(fs.readFileSync('tests/fixtures/tools/NotoSansSC-Features.ttf'));
const OTF = new Uint8Array(fs.readFileSync('tests/fixtures/tools/NotoSansSC-Features.otf'));
const TEXT = '「永和九年，岁在癸丑。」——Font 造字！龘';

let library: LibraryFixture;
let app: Hono;

beforeAll(async () => {
  ({ library, app } = await openToolsApp('tools-subset'));
});
afterAll(() => closeToolsApp(library));

async function subset(body: unknown): Promise<JobAnswer> {
  const started = await call<{ jobId: string }>(app, '/tools/api/subset', json('POST', body));
  expect(started.status, started.message).toBe(200);
  return waitForJob(app, started.data.jobId);
}

async function download(url: string): Promise<Uint8Array> {
  const res = await app.request(url);
  expect(res.status).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

const codePoints = (text: string) => [...new Set([...text].map((ch) => ch.codePointAt(0) ?? 0))].sort((a, b) => a - b);

describe('POST /tools/api/subset', () => {
  test.each([
    ['TrueType', TTF, 'ttf'],
    ['CFF', OTF, 'otf'],
  ])(
    'keeps exactly the requested characters the %s font has, with its layout features',
    async (_kind, source, plain) => {
      const upload = await uploadFont(app, source, 'NotoSansSC-Features.ttf');
      const job = await subset({
        source: { fileId: upload.data.fileId },
        text: TEXT,
        formats: ['ttf', 'woff', 'woff2'],
      });
      expect(job.state, job.error).toBe('done');
      const result = job.result as NonNullable<JobAnswer['result']> & {
        familyName: string;
        keptCount: number;
        missing: string;
        css: string;
      };
      const inFont = new Set(cmapByFontTools(source));
      const expected = codePoints(TEXT).filter((cp) => inFont.has(cp));
      expect(result.missing).toBe('龘');
      expect(result.keptCount).toBe(expected.length);
      expect(result.familyName).toBe('Noto Sans SC');
      expect(result.files.map((file) => file.format)).toEqual([plain, 'woff', 'woff2']);
      expect(result.files.map((file) => file.name)).toEqual([
        `NotoSansSC-Features-subset.${plain}`,
        'NotoSansSC-Features-subset.woff',
        'NotoSansSC-Features-subset.woff2',
      ]);
      const wantedFeatures = { GSUB: ['vert', 'vrt2'], GPOS: ['halt', 'kern', 'palt'] };
      expect(featuresByFontTools(source)).toMatchObject({
        GSUB: expect.arrayContaining(wantedFeatures.GSUB),
        GPOS: expect.arrayContaining(wantedFeatures.GPOS),
      });
      for (const file of result.files) {
        const bytes = await download(file.url);
        expect(passesOts(bytes), `${file.name} passes ots-sanitize`).toBe(true);
        expect(cmapByFontTools(bytes)).toEqual(expected);
        const features = featuresByFontTools(bytes);
        expect(features['GSUB']).toEqual(expect.arrayContaining(wantedFeatures.GSUB));
        expect(features['GPOS']).toEqual(expect.arrayContaining(wantedFeatures.GPOS));
      }
      expect(result.css).toBe(
        [
          '@font-face {',
          "  font-family: 'Noto Sans SC';",
          "  src: url('./NotoSansSC-Features-subset.woff2') format('woff2'),",
          "       url('./NotoSansSC-Features-subset.woff') format('woff'),",
          `  ${' '.repeat(5)}url('./NotoSansSC-Features-subset.${plain}') format('${plain === 'ttf' ? 'truetype' : 'opentype'}');`,
          '  font-display: swap;',
          '}',
        ].join('\n'),
      );
      expect(result.zipUrl).toMatch(/\.zip$/);
    },
  );

  test('keeps a character set of a library font: Latin', async () => {
    const [font] = await library.db.select().from(fonts).where(eq(fonts.gno, 'zcool-kuaile-400'));
    const job = await subset({ source: { fontId: font?.id }, charsets: ['latin'], formats: ['woff2'] });
    expect(job.state, job.error).toBe('done');
    const file = job.result?.files[0];
    const original = new Uint8Array(fs.readFileSync('tests/fixtures/fonts/zcool-kuaile/ZCOOLKuaiLe_400Regular.ttf'));
    const latin = Array.from({ length: 0x7f - 0x20 }, (_, i) => 0x20 + i);
    const inFont = new Set(cmapByFontTools(original));
    expect(cmapByFontTools(await download(file?.url ?? ''))).toEqual(latin.filter((cp) => inFont.has(cp)));
    expect(job.result?.zipUrl).toBeUndefined();
  });

  test.each([
    ['empty text', { text: '', formats: ['ttf'] }, '请输入要保留的文字或选择字符集'],
    ['only control characters', { text: '\n\t', charsets: [], formats: ['ttf'] }, '请输入要保留的文字或选择字符集'],
    ['no format', { text: '字', formats: [] }, '请至少选择一种输出格式'],
    ['too much text', { text: '字'.repeat(20_001), formats: ['ttf'] }, '文字最多 20000 个字符'],
    [
      'an unknown character set',
      { charsets: ['gbk'], formats: ['ttf'] },
      '字符集（charsets）第 1 项：只能是 gb2312、common3500、big5、latin 之一',
    ],
  ])('answers %s with 400', async (_name, body, message) => {
    const answer = await call(app, '/tools/api/subset', json('POST', { source: { fontId: 1 }, ...body }));
    expect(answer.status).toBe(400);
    expect(answer.message).toContain(message);
  });

  test('fails the job with a clear message when the font has none of the characters', async () => {
    const upload = await uploadFont(app, TTF, 'font.ttf');
    const job = await subset({ source: { fileId: upload.data.fileId }, text: '龘靐', formats: ['ttf'] });
    expect(job.state).toBe('failed');
    expect(job.error).toBe('这款字体里没有所输入的任何字符');
  });
});
