import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../src/server/app.ts';
import { closeDatabase, useDatabase } from '../../src/server/db/client.ts';
import { seedFonts } from '../../src/server/db/seed/fonts.ts';
import { resetEnv } from '../../src/server/env.ts';
import type { FontResource, Page } from '../../src/server/fonts/catalogue.ts';
import { openTestDatabase } from '../helpers/database.ts';
import { expectRangeAnswers } from '../helpers/range-requests.ts';

const FIXTURES = path.resolve('tests/fixtures/fonts');
let dataDir: string;
let savedEnv: NodeJS.ProcessEnv;
let app: ReturnType<typeof createApp>;

async function list(
  query: string,
): Promise<{ status: number; body: { code: string; message: string; data: Page<FontResource> } }> {
  const res = await app.request(`/web/api/fontOverride/getFontList${query}`);
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  savedEnv = { ...process.env };
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'font-alliance-api-'));
  process.env['DATA_DIR'] = dataDir;
  process.env['LOG_LEVEL'] = 'silent';
  resetEnv();
  const database = await openTestDatabase();
  useDatabase(database);
  const seeded = await seedFonts({ source: 'fixtures' });
  expect(seeded.failed).toEqual([]);
  app = createApp();
});
afterAll(async () => {
  await closeDatabase();
  process.env = savedEnv;
  resetEnv();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('GET /web/api/fontOverride/getFontList', () => {
  test('returns font resource items with their child fonts', async () => {
    const { status, body } = await list('');
    expect(status).toBe(200);
    expect(body.code).toBe('200');
    expect(body.data).toMatchObject({ total: 3, size: 20, current: 1, pages: 1 });
    const noto = body.data.records.find((r) => r.fontGNo === 'noto-sans-sc');
    expect(noto).toMatchObject({
      familyName: '思源黑体（简体）',
      fontFamily: 'Noto Sans SC',
      ttfPath: '/files/fonts/noto-sans-sc/NotoSansSC_400Regular.ttf',
      woffPath: null,
      webFontFamily: 'fa-noto-sans-sc',
      category: '1',
      script: '1',
      license: 'OFL-1.1',
      commercialFree: true,
      coverage: { latin: 95 },
    });
    expect(noto?.childFontResource.map((c) => [c.fontGNo, c.weight, c.styleName, c.italic])).toEqual([
      ['noto-sans-sc-400', 400, 'Regular', false],
      ['noto-sans-sc-700', 700, 'Bold', false],
    ]);
    expect(noto?.childFontResource[1]).toMatchObject({
      familyName: '思源黑体（简体）',
      fontFamily: 'Noto Sans SC',
      ttfPath: '/files/fonts/noto-sans-sc/NotoSansSC_700Bold.ttf',
      woffPath: null,
      webFontFamily: 'fa-noto-sans-sc-700',
    });
    // 黑体 comes first when nothing has been downloaded yet.
    expect(body.data.records[0]?.fontGNo).toBe('noto-sans-sc');
  });

  test.each([
    ['?current=1&size=2', 2, 2],
    ['?current=2&size=2', 1, 2],
    ['?current=3&size=2', 0, 2],
    ['?current=1&size=100', 3, 1],
  ])('pages with %s', async (query, count, pages) => {
    const { body } = await list(query);
    expect(body.data.records).toHaveLength(count);
    expect(body.data.total).toBe(3);
    expect(body.data.pages).toBe(pages);
  });

  test('returns every family once across the pages', async () => {
    const first = await list('?current=1&size=2');
    const second = await list('?current=2&size=2');
    const gnos = [...first.body.data.records, ...second.body.data.records].map((r) => r.fontGNo).sort();
    expect(gnos).toEqual(['ma-shan-zheng', 'noto-sans-sc', 'zcool-kuaile']);
  });

  test.each([
    ['?size=101', '每页条数（size）'],
    ['?size=0', '每页条数（size）'],
    ['?size=abc', '每页条数（size）'],
    ['?current=0', '页码（current）'],
    [`?keyword=${'字'.repeat(51)}`, '关键词（keyword）'],
  ])('answers 400 naming the field for %s', async (query, field) => {
    const { status, body } = await list(query);
    expect(status).toBe(400);
    expect(body.code).toBe('400');
    expect(body.message).toContain(field);
    expect(body.data).toBeNull();
  });

  test.each([
    ['?keyword=思源', ['noto-sans-sc']],
    ['?keyword=kuaile', ['zcool-kuaile']],
    ['?keyword=MA%20SHAN', ['ma-shan-zheng']],
    ['?keyword=%25', []],
    ['?keyword=_', []],
    ['?keyword=%20%20', ['ma-shan-zheng', 'noto-sans-sc', 'zcool-kuaile']],
    ['?category=7', ['ma-shan-zheng']],
    ['?category=1&script=1', ['noto-sans-sc']],
    ['?script=3', []],
    ['?category=8&keyword=站酷', ['zcool-kuaile']],
  ])('filters with %s', async (query, expected) => {
    const { status, body } = await list(query);
    expect(status).toBe(200);
    expect(body.data.records.map((r) => r.fontGNo).sort()).toEqual(expected);
    expect(body.data.total).toBe(expected.length);
  });

  test('serves every ttfPath as the bytes of the fixture file', async () => {
    const { body } = await list('?size=100');
    const paths = body.data.records.flatMap((r) => [r.ttfPath, ...r.childFontResource.map((c) => c.ttfPath)]);
    expect(paths).toHaveLength(7);
    for (const ttfPath of paths) {
      const res = await app.request(ttfPath ?? '');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('font/ttf');
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const bytes = Buffer.from(await res.arrayBuffer());
      const fixture = fs.readFileSync(path.join(FIXTURES, (ttfPath ?? '').replace('/files/fonts/', '')));
      expect(res.headers.get('content-length')).toBe(String(fixture.length));
      expect(bytes.equals(fixture)).toBe(true);
    }
  });
});

describe('GET /files/*', () => {
  test.each([
    '/files/fonts/no-such/font.ttf',
    '/files/..%2F..%2Fetc%2Fpasswd',
    '/files/%2e%2e/%2e%2e/etc/passwd',
    '/files/fonts/..%2F..%2Fdb.lock',
    '/files/.tmp/x.part',
    '/files/fonts',
  ])('answers %s with the 404 envelope', async (url) => {
    const res = await app.request(url);
    expect(res.status).toBe(404);
    // URL parsing may resolve dot segments before routing; either way nothing outside storage is served.
    expect(await res.json()).toMatchObject({ code: '404', data: null });
  });

  test('names the missing file in Chinese', async () => {
    const res = await app.request('/files/fonts/no-such/font.ttf');
    expect(await res.json()).toEqual({ code: '404', message: '文件不存在', data: null });
  });

  test('answers Range requests with the part asked for', async () => {
    const whole = fs.readFileSync(path.join(FIXTURES, 'zcool-kuaile/ZCOOLKuaiLe_400Regular.ttf'));
    await expectRangeAnswers(app, '/files/fonts/zcool-kuaile/ZCOOLKuaiLe_400Regular.ttf', new Uint8Array(whole));
  });

  test('answers HEAD with the headers and no body', async () => {
    const res = await app.request('/files/fonts/zcool-kuaile/ZCOOLKuaiLe_400Regular.ttf', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(
      String(fs.statSync(path.join(FIXTURES, 'zcool-kuaile/ZCOOLKuaiLe_400Regular.ttf')).size),
    );
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });
});
