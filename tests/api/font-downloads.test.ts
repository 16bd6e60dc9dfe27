import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { downloadHistory, fontFamilies, fonts } from '../../src/server/db/schema/index.ts';
import { DOWNLOAD_LINK_TTL_MS, signDownload } from '../../src/server/fonts/download-links.ts';
import { contentDisposition, downloadRoutes } from '../../src/server/fonts/download-routes.ts';
import { createDownloadLink, type DownloadLink } from '../../src/server/fonts/downloads.ts';
import { fontRoutes } from '../../src/server/fonts/routes.ts';
import { woff2Made } from '../../src/server/fonts/woff2-downloads.ts';
import { call, insertAccount, type LibraryFixture, openFixtureLibrary, routesApp } from '../helpers/font-library.ts';
import { cmapByFontTools, passesOts } from '../helpers/font-oracle.ts';
import { expectRangeAnswers } from '../helpers/range-requests.ts';

const FIXTURES = path.resolve('tests/fixtures/fonts');
let library: LibraryFixture;
let app: Hono;
let now = Date.UTC(2026, 5, 1, 8, 0, 0);
let accountId: number;
let loggedIn: number | null = null;

/** Lists a zip's entries and their bytes with Python's zipfile (an independent reader). */
function unzip(bytes: Uint8Array): Record<string, Buffer> {
  const file = path.join(library.dataDir, `check-${Date.now()}.zip`);
  fs.writeFileSync(file, bytes);
  const script = `import sys, zipfile, json, base64
z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None
print(json.dumps({i.filename: base64.b64encode(z.read(i)).decode() for i in z.infolist()}))`;
  const out = JSON.parse(execFileSync('python3', ['-c', script, file], { encoding: 'utf8', maxBuffer: 64 << 20 }));
  return Object.fromEntries(
    Object.entries(out as Record<string, string>).map(([k, v]) => [k, Buffer.from(v, 'base64')]),
  );
}

async function linkFor(gno: string): Promise<DownloadLink> {
  return createDownloadLink(gno, { now: () => now });
}

beforeAll(async () => {
  library = await openFixtureLibrary('downloads');
  accountId = await insertAccount(library.db, 'reader@example.com');
  app = routesApp((routes) => {
    routes.route('/web/api', fontRoutes());
    routes.route('/api/v1', downloadRoutes({ now: () => now, account: async () => loggedIn }));
  });
});

afterAll(async () => {
  await library.close();
});

describe('GET /web/api/font/get-download-url', () => {
  test('hands out a signed link with expiry, file name and size', async () => {
    const before = Date.now();
    const answer = await call<DownloadLink>(app, '/web/api/font/get-download-url?gno=noto-sans-sc-700');
    expect(answer.status).toBe(200);
    expect(answer.data).toMatchObject({ fileName: '思源黑体（简体）-Bold.ttf', size: 95704 });
    expect(answer.data.url).toMatch(/^\/api\/v1\/web\/noto-sans-sc-700\/download\?expires=\d+&signature=[\w-]+$/);
    const expires = Date.parse(answer.data.expiresAt);
    expect(expires - before).toBeGreaterThanOrEqual(DOWNLOAD_LINK_TTL_MS - 1000);
    expect(expires - before).toBeLessThanOrEqual(DOWNLOAD_LINK_TTL_MS + 5000);
  });

  test('makes a weight’s WOFF2 on the first ask, then links it; a family has no WOFF2', async () => {
    const url = '/web/api/font/get-download-url?gno=zcool-kuaile-400&format=woff2';
    const first = await call<DownloadLink>(app, url);
    expect(first.status).toBe(200);
    expect(first.data).toMatchObject({ format: 'woff2', preparing: true, url: '', size: 0 });
    const [font] = await library.db.select().from(fonts).where(eq(fonts.gno, 'zcool-kuaile-400'));
    if (!font) throw new Error('no zcool-kuaile-400');
    await woff2Made(font);
    const ready = await call<DownloadLink>(app, url);
    expect(ready.data).toMatchObject({ format: 'woff2', preparing: false, fileName: '站酷快乐体-Regular.woff2' });
    const res = await app.request(ready.data.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('font/woff2');
    const woff2 = new Uint8Array(await res.arrayBuffer());
    expect(woff2.byteLength).toBe(ready.data.size);
    const ttf = new Uint8Array(fs.readFileSync(path.join(FIXTURES, 'zcool-kuaile/ZCOOLKuaiLe_400Regular.ttf')));
    expect(woff2.byteLength).toBeLessThan(ttf.byteLength);
    expect(passesOts(woff2)).toBe(true);
    expect(cmapByFontTools(woff2)).toEqual(cmapByFontTools(ttf));
    await expectRangeAnswers(app, ready.data.url, woff2);
    const family = await call(app, '/web/api/font/get-download-url?gno=zcool-kuaile&format=woff2');
    expect(family.status).toBe(400);
    expect(family.message).toContain('WOFF2');
  });

  test('answers 404 for an unknown font', async () => {
    expect((await call(app, '/web/api/font/get-download-url?gno=nope')).status).toBe(404);
  });
});

describe('GET /api/v1/web/{gno}/download', () => {
  test('streams a child font’s TTF with a UTF-8 file name', async () => {
    const link = await linkFor('noto-sans-sc-400');
    const res = await app.request(link.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('font/ttf');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="noto-sans-sc-400.ttf"; filename*=UTF-8''${encodeURIComponent('思源黑体（简体）-Regular.ttf')}`,
    );
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.equals(fs.readFileSync(path.join(FIXTURES, 'noto-sans-sc/NotoSansSC_400Regular.ttf')))).toBe(true);
    expect(res.headers.get('content-length')).toBe(String(bytes.length));
  });

  test('resumes a TTF download from the byte it stopped at, counted once', async () => {
    const link = await linkFor('zcool-kuaile-400');
    const whole = fs.readFileSync(path.join(FIXTURES, 'zcool-kuaile/ZCOOLKuaiLe_400Regular.ttf'));
    const [before] = await library.db.select().from(fontFamilies).where(eq(fontFamilies.gno, 'zcool-kuaile'));
    const started = await app.request(link.url, { headers: { range: 'bytes=0-999' } });
    expect(started.status).toBe(206);
    expect(started.headers.get('content-disposition')).toContain('filename="zcool-kuaile-400.ttf"');
    const resumed = await app.request(link.url, { headers: { range: 'bytes=1000-' } });
    expect(resumed.status).toBe(206);
    const joined = Buffer.concat([Buffer.from(await started.arrayBuffer()), Buffer.from(await resumed.arrayBuffer())]);
    expect(joined.equals(whole)).toBe(true);
    const [after] = await library.db.select().from(fontFamilies).where(eq(fontFamilies.gno, 'zcool-kuaile'));
    expect((after?.downloads ?? 0) - (before?.downloads ?? 0)).toBe(1);
    await expectRangeAnswers(app, link.url, new Uint8Array(whole));
  });

  test('streams a family as a zip of every weight, its licence and a Chinese README', async () => {
    const link = await linkFor('noto-sans-sc');
    expect(link.fileName).toBe('思源黑体（简体）.zip');
    const res = await app.request(link.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toContain(
      `filename*=UTF-8''${encodeURIComponent('思源黑体（简体）.zip')}`,
    );
    const whole = new Uint8Array(await res.arrayBuffer());
    // Its size is known before it is sent, so the browser shows progress, and it resumes.
    expect(res.headers.get('content-length')).toBe(String(whole.byteLength));
    await expectRangeAnswers(app, link.url, whole);
    const again = new Uint8Array(await (await app.request(link.url)).arrayBuffer());
    expect(again).toEqual(whole);
    const entries = unzip(whole);
    expect(Object.keys(entries).sort()).toEqual([
      'noto-sans-sc/NotoSansSC_400Regular.ttf',
      'noto-sans-sc/NotoSansSC_700Bold.ttf',
      'noto-sans-sc/OFL.txt',
      'noto-sans-sc/README.txt',
    ]);
    for (const name of ['NotoSansSC_400Regular.ttf', 'NotoSansSC_700Bold.ttf']) {
      expect(entries[`noto-sans-sc/${name}`]?.equals(fs.readFileSync(path.join(FIXTURES, 'noto-sans-sc', name)))).toBe(
        true,
      );
    }
    expect(entries['noto-sans-sc/OFL.txt']?.toString('utf8')).toContain('SIL OPEN FONT LICENSE');
    const readme = entries['noto-sans-sc/README.txt']?.toString('utf8') ?? '';
    expect(readme).toContain('思源黑体（简体）');
    expect(readme).toContain('NotoSansSC_700Bold.ttf');
  });

  test('answers 403 once the link has expired', async () => {
    const link = await linkFor('zcool-kuaile');
    now += DOWNLOAD_LINK_TTL_MS - 1;
    expect((await app.request(link.url)).status).toBe(200);
    now += 2;
    const res = await app.request(link.url);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { message: string }).message).toBe('下载链接已过期，请回到字体详情页重新点击下载');
  });

  test.each([
    // The first character is swapped for a different one, so the forgery differs for every secret.
    [
      'a changed signature',
      (url: string) => url.replace(/signature=(.)/, (_, c: string) => `signature=${c === 'A' ? 'B' : 'A'}`),
    ],
    ['a later expiry', (url: string) => url.replace(/expires=(\d+)/, (_, n) => `expires=${Number(n) + 60_000}`)],
    ['another font', (url: string) => url.replace('noto-sans-sc-400', 'noto-sans-sc-700')],
    ['no signature', (url: string) => url.replace(/&signature=.*/, '')],
    ['an expiry that is not a number', (url: string) => url.replace(/expires=\d+/, 'expires=soon')],
  ])('answers 403 for a link with %s', async (_label, forge) => {
    const link = await linkFor('noto-sans-sc-400');
    const res = await app.request(forge(link.url));
    expect(res.status).toBe(403);
    expect(((await res.json()) as { message: string }).message).toBe('下载链接无效，请回到字体详情页重新点击下载');
  });

  test('rejects a signature made with another secret', async () => {
    const expires = now + 60_000;
    const forged = signDownload('noto-sans-sc-400', expires, Buffer.from('x'.repeat(32)));
    const res = await app.request(`/api/v1/web/noto-sans-sc-400/download?expires=${expires}&signature=${forged}`);
    expect(res.status).toBe(403);
  });

  test('records visitors by IP only and logged-in users by account, and counts downloads', async () => {
    const [before] = await library.db.select().from(fontFamilies).where(eq(fontFamilies.gno, 'ma-shan-zheng'));
    loggedIn = null;
    await (await app.request((await linkFor('ma-shan-zheng')).url)).arrayBuffer();
    loggedIn = accountId;
    await (await app.request((await linkFor('ma-shan-zheng-400')).url)).arrayBuffer();
    loggedIn = null;
    const [after] = await library.db.select().from(fontFamilies).where(eq(fontFamilies.gno, 'ma-shan-zheng'));
    expect((after?.downloads ?? 0) - (before?.downloads ?? 0)).toBe(2);
    const rows = await library.db
      .select()
      .from(downloadHistory)
      .where(eq(downloadHistory.familyId, after?.id ?? -1));
    expect(rows.map((row) => [row.accountId, row.fontId === null])).toEqual([
      [null, true],
      [accountId, false],
    ]);
  });
});

describe('contentDisposition', () => {
  test('percent-encodes the UTF-8 name and keeps an ASCII fallback', () => {
    expect(contentDisposition("站酷(快乐)'体.zip", 'zcool.zip')).toBe(
      'attachment; filename="zcool.zip"; filename*=UTF-8\'\'%E7%AB%99%E9%85%B7%28%E5%BF%AB%E4%B9%90%29%27%E4%BD%93.zip',
    );
  });
});
