import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../src/server/app.ts';
import { closeDatabase, useDatabase } from '../../src/server/db/client.ts';
import { seedFonts } from '../../src/server/db/seed/fonts.ts';
import { resetEnv } from '../../src/server/env.ts';
import { registerApiApp, withDirectApi } from '../../src/server/http/direct-api.ts';
import { keptSubsetAnswers } from '../../src/server/webfont/answers.ts';
import { subsetStats } from '../../src/server/webfont/previews.ts';
import { closeSubsetPool } from '../../src/server/webfont/subset.ts';
import { openTestDatabase } from '../helpers/database.ts';
import { cmapByFontTools, featuresByFontTools, outlineByFontTools, passesOts } from '../helpers/font-oracle.ts';

const NOTO = 'tests/fixtures/fonts/noto-sans-sc/NotoSansSC_400Regular.ttf';
const TEXT = '永和九年，岁在癸丑。Font 字体';

let app: Hono;
let dataDir: string;
let savedEnv: NodeJS.ProcessEnv;

interface Item {
  gno: string;
  familyName: string;
  woffPath: string;
  ttfPath: string;
}

async function subset(body: unknown): Promise<{ status: number; code: string; message: string; data: Item[] }> {
  const res = await app.request('/webfont/http', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, ...((await res.json()) as { code: string; message: string; data: Item[] }) };
}

async function subsetEmbedded(
  body: unknown,
): Promise<{ status: number; message: string; data: Array<Item & { woff2: string; missing: string }> }> {
  const res = await app.request('/webfont/http?embed=woff2', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, ...((await res.json()) as { message: string; data: [] }) };
}

async function download(url: string): Promise<Uint8Array> {
  const res = await app.request(url);
  expect(res.status).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

beforeAll(async () => {
  savedEnv = { ...process.env };
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'font-alliance-webfont-'));
  process.env['DATA_DIR'] = dataDir;
  process.env['SUBSET_WORKERS'] = '2';
  resetEnv();
  useDatabase(await openTestDatabase());
  expect((await seedFonts({ source: 'fixtures' })).failed).toEqual([]);
  app = createApp();
});

afterAll(async () => {
  await closeSubsetPool();
  await closeDatabase();
  process.env = savedEnv;
  resetEnv();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('POST /webfont/http', () => {
  test('answers SPEC’s shape: gno, familyName, woffPath and ttfPath for each item', async () => {
    const answer = await subset([{ gno: 'noto-sans-sc-400', text: TEXT }]);
    expect(answer.code).toBe('200');
    expect(answer.data).toEqual([
      {
        gno: 'noto-sans-sc-400',
        familyName: '思源黑体（简体）',
        woffPath: expect.stringMatching(/^\/files\/subsets\/.+\.woff2$/),
        ttfPath: expect.stringMatching(/^\/files\/subsets\/.+\.ttf$/),
        missing: expect.any(String),
      },
    ]);
  });

  test('names the characters the font lacks, fresh and from its caches alike', async () => {
    const original = new Uint8Array(fs.readFileSync(NOTO));
    const inFont = new Set(cmapByFontTools(original));
    const text = '永和龘𠀀九年';
    const expected = [...text].filter((ch) => !inFont.has(ch.codePointAt(0) ?? 0)).join('');
    expect(expected).toBe('龘𠀀');
    for (let run = 0; run < 2; run++) {
      const [item] = (await subset([{ gno: 'noto-sans-sc-400', text }])).data as Array<Item & { missing: string }>;
      expect(item?.missing, `run ${run + 1}`).toBe(expected);
    }
  });

  test('keeps exactly the requested characters that the font has, in both formats', async () => {
    const original = new Uint8Array(fs.readFileSync(NOTO));
    const inFont = new Set(cmapByFontTools(original));
    const wanted = [...new Set([...TEXT].map((ch) => ch.codePointAt(0) ?? 0))].filter((cp) => inFont.has(cp));
    const [item] = (await subset([{ gno: 'noto-sans-sc-400', text: TEXT }])).data;
    if (!item) throw new Error('no item');
    for (const url of [item.ttfPath, item.woffPath]) {
      expect(cmapByFontTools(await download(url))).toEqual(wanted.sort((a, b) => a - b));
    }
  });

  test('produces fonts that pass ots-sanitize and keep the outlines of kept characters', async () => {
    const [item] = (await subset([{ gno: 'noto-sans-sc-400', text: TEXT }])).data;
    if (!item) throw new Error('no item');
    const ttf = await download(item.ttfPath);
    const woff2 = await download(item.woffPath);
    expect(passesOts(ttf)).toBe(true);
    expect(passesOts(woff2)).toBe(true);
    const original = new Uint8Array(fs.readFileSync(NOTO));
    for (const ch of ['永', '癸', 'F']) {
      expect(outlineByFontTools(woff2, ch)).toEqual(outlineByFontTools(original, ch));
    }
  });

  test('keeps the layout features the font has, so CJK punctuation spacing still works', async () => {
    const original = featuresByFontTools(new Uint8Array(fs.readFileSync(NOTO)));
    const [item] = (await subset([{ gno: 'noto-sans-sc-400', text: '，。「」（）永' }])).data;
    if (!item) throw new Error('no item');
    const kept = featuresByFontTools(await download(item.ttfPath));
    for (const feature of ['halt', 'vert', 'palt']) {
      if (original['GPOS']?.includes(feature)) expect(kept['GPOS']).toContain(feature);
      if (original['GSUB']?.includes(feature)) expect(kept['GSUB']).toContain(feature);
    }
  });

  test('names a family by its gno and answers with its regular weight', async () => {
    const [family] = (await subset([{ gno: 'noto-sans-sc', text: '永' }])).data;
    const [regular] = (await subset([{ gno: 'noto-sans-sc-400', text: '永' }])).data;
    expect(family?.woffPath).toBe(regular?.woffPath);
    expect(family?.gno).toBe('noto-sans-sc');
  });

  test('answers a repeated request from its cache without subsetting again', async () => {
    const text = '天地玄黄宇宙洪荒';
    const first = await subset([{ gno: 'zcool-kuaile', text }]);
    const before = subsetStats().subsetted;
    const again = await subset([{ gno: 'zcool-kuaile', text: '荒洪宙宇黄玄地天天天' }]);
    expect(again.data).toEqual(first.data);
    expect(subsetStats().subsetted).toBe(before);
  });

  test('collapses identical concurrent requests into one subsetting', async () => {
    const before = subsetStats().subsetted;
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => subset([{ gno: 'ma-shan-zheng', text: '暮春之初' }])),
    );
    expect(new Set(answers.map((answer) => answer.data[0]?.woffPath)).size).toBe(1);
    expect(subsetStats().subsetted - before).toBe(1);
  });

  test.each([
    ['no fonts', [], '请至少选择一款字体'],
    ['61 fonts', Array.from({ length: 61 }, () => ({ gno: 'zcool-kuaile', text: '字' })), '一次最多预览 60 款字体'],
    ['empty text', [{ gno: 'zcool-kuaile', text: '' }], '预览文字不能为空'],
    ['control characters only', [{ gno: 'zcool-kuaile', text: '\u0001\u0002' }], '预览文字不能为空'],
    ['an unknown font', [{ gno: 'no-such-font', text: '字' }], '字体不存在：no-such-font'],
    ['an object instead of a list', { gno: 'zcool-kuaile', text: '字' }, '字体列表：'],
    [
      'an item without text',
      [{ gno: 'zcool-kuaile', text: '字' }, { gno: 'zcool-kuaile' }],
      '字体列表第 2 项的预览文字（text）：',
    ],
  ])('rejects %s with 400 and says why', async (_case, body, message) => {
    const answer = await subset(body);
    expect(answer.status).toBe(400);
    expect(answer.message.startsWith(message)).toBe(true);
  });

  test('answers with each WOFF2 inside when asked to embed it: OTS-clean, exactly the characters the font has, the file the path names', async () => {
    const original = new Uint8Array(fs.readFileSync(NOTO));
    const inFont = new Set(cmapByFontTools(original));
    const text = '春眠不觉晓，处处闻啼鸟。龘';
    const wanted = [...new Set([...text].map((ch) => ch.codePointAt(0) ?? 0))].filter((cp) => inFont.has(cp));
    const answer = await subsetEmbedded([
      { gno: 'noto-sans-sc-400', text },
      { gno: 'zcool-kuaile', text: '夜来风雨声' },
    ]);
    expect(answer.status).toBe(200);
    const [noto, kuaile] = answer.data;
    if (!noto || !kuaile) throw new Error('an item is missing');
    const woff2 = new Uint8Array(Buffer.from(noto.woff2, 'base64'));
    expect(passesOts(woff2)).toBe(true);
    expect(cmapByFontTools(woff2)).toEqual(wanted.sort((a, b) => a - b));
    const lacking = [...new Set(text)].filter((ch) => !inFont.has(ch.codePointAt(0) ?? 0));
    expect([...noto.missing].sort()).toEqual(lacking.sort());
    expect(noto.missing).toContain('龘');
    expect(passesOts(new Uint8Array(Buffer.from(kuaile.woff2, 'base64')))).toBe(true);
    // The paths still name the same files, for clients that fetch them.
    await expect.poll(async () => (await app.request(noto.woffPath)).status).toBe(200);
    expect(Buffer.from(await download(noto.woffPath)).equals(Buffer.from(woff2))).toBe(true);
    const again = await subsetEmbedded([{ gno: 'noto-sans-sc-400', text }]);
    expect(again.data[0]?.woff2).toBe(noto.woff2);
  });

  test('answers from the files in storage once its memory and workers are gone, without subsetting again', async () => {
    const text = '白日依山尽';
    const first = await subsetEmbedded([{ gno: 'ma-shan-zheng', text }]);
    const stored = first.data[0];
    if (!stored) throw new Error('no item');
    await expect.poll(async () => (await app.request(stored.woffPath)).status).toBe(200);
    await closeSubsetPool();
    const before = subsetStats();
    const again = await subsetEmbedded([{ gno: 'ma-shan-zheng', text }]);
    expect(again.data[0]).toEqual(stored);
    expect(subsetStats().storageHits).toBe(before.storageHits + 1);
    expect(subsetStats().subsetted).toBe(before.subsetted);
  });

  test('answers the same call again from memory whole: the same bytes, without looking at a preview', async () => {
    const call = () =>
      app.request('/webfont/http?embed=woff2', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify([{ gno: 'zcool-kuaile', text: '欲穷千里目' }]),
      });
    const first = Buffer.from(await (await call()).arrayBuffer());
    const before = subsetStats();
    const again = await call();
    expect(again.status).toBe(200);
    expect(again.headers.get('content-type')).toContain('application/json');
    expect(Buffer.from(await again.arrayBuffer()).equals(first)).toBe(true);
    expect(subsetStats()).toEqual(before);
  });

  test('the Node server answers a kept call before the API app, and leaves the app what it would refuse', async () => {
    let appCalls = 0;
    registerApiApp({
      fetch: (request: Request) => {
        appCalls++;
        return app.fetch(request);
      },
    });
    const server = http.createServer(withDirectApi((_req, res) => res.end('page'), [keptSubsetAnswers]));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const call = (headers: Record<string, string> = {}) =>
      fetch(`${base}/webfont/http?embed=woff2`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify([{ gno: 'zcool-kuaile', text: '白日依山尽' }]),
      });
    try {
      const first = await call();
      const firstBytes = Buffer.from(await first.arrayBuffer());
      expect(first.status).toBe(200);
      expect(appCalls).toBe(1);

      const again = await call();
      expect(again.status).toBe(200);
      expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
      expect(Buffer.from(await again.arrayBuffer()).equals(firstBytes)).toBe(true);
      expect(again.headers.get('cache-control')).toBeNull();
      expect(appCalls).toBe(1);

      // A login's answer is no one else's to keep, as the app says of every such answer.
      const signedIn = await call({ 'alliance-authenticate': 'some-token' });
      expect(Buffer.from(await signedIn.arrayBuffer()).equals(firstBytes)).toBe(true);
      expect(signedIn.headers.get('cache-control')).toBe('private, no-store');
      expect(appCalls).toBe(1);

      // A write by cookie from another site is the app's to refuse, kept answer or not.
      const crossSite = await call({ cookie: 'token=abc', origin: 'https://elsewhere.example' });
      expect(crossSite.status).toBe(403);
      expect(appCalls).toBe(2);
    } finally {
      server.close();
      registerApiApp(undefined as never);
    }
  });

  test('refuses an embed format it does not know', async () => {
    const res = await app.request('/webfont/http?embed=ttf', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ gno: 'zcool-kuaile', text: '字' }]),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toContain('内嵌字体（embed）');
  });

  test('rejects more than 1000 different characters and points to the web-font service', async () => {
    const text = Array.from({ length: 1001 }, (_, i) => String.fromCodePoint(0x4e00 + i)).join('');
    const answer = await subset([{ gno: 'noto-sans-sc', text }]);
    expect(answer.status).toBe(400);
    expect(answer.message).toContain('最多 1000 个不同的字符');
  });
});
