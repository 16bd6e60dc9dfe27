import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fonts } from '../../src/server/db/schema/index.ts';
import { decodeEot, encodeEot } from '../../src/server/engine/eot.ts';
import { sweepToolFiles } from '../../src/server/tools/sweeper.ts';
import { call, json, type LibraryFixture } from '../helpers/font-library.ts';
import { cmapByFontTools, passesOts } from '../helpers/font-oracle.ts';
import { collectionByFontTools, flavorByFontTools, glyphCountByFontTools } from '../helpers/font-writers.ts';
import { closeToolsApp, type JobAnswer, openToolsApp, storedFiles, uploadFont, waitForJob } from '../helpers/tools.ts';

const TTF = new Uint8Array(fs.readFileSync('tests/fixtures/tools/NotoSansSC-Features.ttf'));
const OTF = new Uint8Array(fs.readFileSync('tests/fixtures/tools/NotoSansSC-Features.otf'));
const KUAILE = new Uint8Array(fs.readFileSync('tests/fixtures/fonts/zcool-kuaile/ZCOOLKuaiLe_400Regular.ttf'));

let library: LibraryFixture;
let app: Hono;

beforeAll(async () => {
  ({ library, app } = await openToolsApp('tools-convert'));
});
afterAll(() => closeToolsApp(library));

async function download(url: string): Promise<{ bytes: Uint8Array; headers: Headers }> {
  const res = await app.request(url);
  expect(res.status).toBe(200);
  return { bytes: new Uint8Array(await res.arrayBuffer()), headers: res.headers };
}

async function convert(source: unknown, formats: string[]): Promise<JobAnswer> {
  const started = await call<{ jobId: string }>(app, '/tools/api/convert', json('POST', { source, formats }));
  expect(started.message).toBe('已开始转换');
  return waitForJob(app, started.data.jobId);
}

/** The same font as far as fontTools can tell: glyph count and character map. */
function expectSameFont(actual: Uint8Array, expected: Uint8Array) {
  expect(glyphCountByFontTools(actual)).toBe(glyphCountByFontTools(expected));
  expect(cmapByFontTools(actual)).toEqual(cmapByFontTools(expected));
}

// Sources in every container the converter reads, written by fontTools where it can write them
// (EOT has no other writer here), for a TrueType and a CFF font.
const sources = () => ({
  ttf: { bytes: TTF, reference: TTF, targets: ['ttf', 'woff', 'woff2', 'eot', 'svg'] },
  otf: { bytes: OTF, reference: OTF, targets: ['otf', 'woff', 'woff2', 'svg'] },
  woff: { bytes: flavorByFontTools(TTF, 'woff'), reference: TTF, targets: ['ttf', 'woff', 'woff2', 'eot'] },
  woff2: { bytes: flavorByFontTools(TTF, 'woff2'), reference: TTF, targets: ['ttf', 'woff', 'woff2', 'eot'] },
  'woff (CFF)': { bytes: flavorByFontTools(OTF, 'woff'), reference: OTF, targets: ['otf', 'woff', 'woff2'] },
  'woff2 (CFF)': { bytes: flavorByFontTools(OTF, 'woff2'), reference: OTF, targets: ['otf', 'woff', 'woff2'] },
  eot: { bytes: encodeEot(TTF), reference: TTF, targets: ['ttf', 'woff', 'woff2', 'eot'] },
  ttc: { bytes: collectionByFontTools([KUAILE, TTF]), reference: KUAILE, targets: ['ttf', 'woff', 'woff2', 'eot'] },
});

describe('POST /tools/api/convert', () => {
  const cases = Object.entries(sources());
  test.each(cases)('converts %s into every format its outlines allow, each a valid font', async (_name, source) => {
    const upload = await uploadFont(app, source.bytes, 'source.bin');
    expect(upload.status).toBe(200);
    const job = await convert({ fileId: upload.data.fileId }, source.targets);
    expect(job.state, job.error).toBe('done');
    expect(job.progress).toBe(1);
    const files = job.result?.files ?? [];
    expect(files.map((file) => file.format).sort()).toEqual([...source.targets].sort());
    for (const file of files) {
      const { bytes, headers } = await download(file.url);
      expect(bytes.byteLength).toBe(file.size);
      expect(headers.get('content-disposition')).toContain("filename*=UTF-8''");
      if (file.format === 'svg') {
        const svg = new TextDecoder().decode(bytes);
        expect(headers.get('content-type')).toBe('image/svg+xml');
        expect(svg.match(/<glyph unicode=/g)?.length).toBe(cmapByFontTools(source.reference).length);
      } else if (file.format === 'eot') {
        expect(headers.get('content-type')).toBe('application/vnd.ms-fontobject');
        expectSameFont(decodeEot(bytes), source.reference);
      } else {
        expect(passesOts(bytes), `${file.name} passes ots-sanitize`).toBe(true);
        expectSameFont(bytes, source.reference);
      }
    }
    if (files.length > 1) {
      const zip = await download(job.result?.zipUrl ?? '');
      expect(zip.headers.get('content-type')).toBe('application/zip');
      expect(new TextDecoder('latin1').decode(zip.bytes.subarray(0, 2))).toBe('PK');
    }
  });

  test('picks a face of a collection with faceIndex', async () => {
    const upload = await uploadFont(app, collectionByFontTools([KUAILE, TTF]), '两款.ttc');
    expect(upload.data.faces).toBe(2);
    const started = await call<{ jobId: string }>(
      app,
      '/tools/api/convert',
      json('POST', { source: { fileId: upload.data.fileId }, formats: ['woff2'], faceIndex: 1 }),
    );
    const job = await waitForJob(app, started.data.jobId);
    const file = job.result?.files[0];
    expect(file?.name).toBe('两款.woff2');
    expectSameFont((await download(file?.url ?? '')).bytes, TTF);

    const wrong = await call(
      app,
      '/tools/api/convert',
      json('POST', { source: { fileId: upload.data.fileId }, formats: ['ttf'], faceIndex: 2 }),
    );
    expect(wrong.status).toBe(400);
    expect(wrong.message).toBe('字体集合中只有 2 款字体（序号 0–1）');
  });

  test('converts a library font by its id', async () => {
    const [font] = await library.db.select().from(fonts).where(eq(fonts.gno, 'noto-sans-sc-400'));
    const job = await convert({ fontId: font?.id }, ['woff']);
    expect(job.state).toBe('done');
    const file = job.result?.files[0];
    expect(file?.name).toBe('NotoSansSC-Regular.woff');
    const original = new Uint8Array(fs.readFileSync('tests/fixtures/fonts/noto-sans-sc/NotoSansSC_400Regular.ttf'));
    expectSameFont((await download(file?.url ?? '')).bytes, original);
  });

  test.each([
    ['ttf', OTF, '这款字体是 CFF（PostScript）轮廓，只能导出为 OTF'],
    ['eot', OTF, 'EOT 只用于旧版 IE'],
    ['otf', TTF, '这款字体是 TrueType 轮廓，只能导出为 TTF'],
  ])('refuses %s where the outlines would have to be redrawn', async (format, bytes, message) => {
    const upload = await uploadFont(app, bytes, 'font.bin');
    const answer = await call(
      app,
      '/tools/api/convert',
      json('POST', { source: { fileId: upload.data.fileId }, formats: [format] }),
    );
    expect(answer.status).toBe(400);
    expect(answer.message).toContain(message);
  });

  test.each([
    [
      { source: { fileId: '00000000-0000-4000-8000-000000000000' }, formats: ['ttf'] },
      404,
      '上传的字体文件不存在或已过期',
    ],
    [{ source: { fontId: 999_999 }, formats: ['ttf'] }, 404, '字体库中没有编号为 999999 的字体'],
    [{ source: { fontId: 1 }, formats: [] }, 400, '请至少选择一种目标格式'],
    [{ source: { fontId: 1 }, formats: ['pdf'] }, 400, '目标格式'],
  ])('answers bad requests with a Chinese message: %j', async (body, status, message) => {
    const answer = await call(app, '/tools/api/convert', json('POST', body));
    expect(answer.status).toBe(status);
    expect(answer.message).toContain(message);
  });

  test('reports a job that fails in the worker, with a Chinese message, and keeps no output', async () => {
    const upload = await uploadFont(app, TTF, 'font.ttf');
    // The stored upload is damaged after it was checked: the worker finds it unreadable.
    const key = `tools/uploads/${upload.data.fileId}/source`;
    fs.writeFileSync(path.join(library.dataDir, 'storage', key), TTF.subarray(0, 5000));
    const outputsBefore = await storedFiles(library.dataDir, 'tools/outputs');
    const job = await convert({ fileId: upload.data.fileId }, ['woff2', 'woff']);
    expect(job.state).toBe('failed');
    expect(job.error).toBe('字体文件不完整（可能上传中断或文件已损坏），请重新上传完整的文件');
    expect(job.result).toBeUndefined();
    expect(await storedFiles(library.dataDir, 'tools/outputs')).toEqual(outputsBefore);
  });

  test('an unknown job answers 404', async () => {
    const answer = await call(app, '/tools/api/jobs/not-a-job');
    expect(answer.status).toBe(404);
    expect(answer.message).toBe('任务不存在或已过期，请重新提交');
  });
});

describe('expiry', () => {
  test('the sweeper removes expired uploads and outputs, and their links stop working', async () => {
    const upload = await uploadFont(app, TTF, 'font.ttf');
    const job = await convert({ fileId: upload.data.fileId }, ['woff']);
    const url = job.result?.files[0]?.url ?? '';
    expect((await app.request(url)).status).toBe(200);
    expect(await storedFiles(library.dataDir, `tools/uploads/${upload.data.fileId}`)).not.toEqual([]);

    await sweepToolFiles(Date.now() + 2 * 60 * 60_000);
    expect(await storedFiles(library.dataDir, 'tools/uploads')).toEqual([]);
    expect(await storedFiles(library.dataDir, 'tools/outputs')).toEqual([]);
    expect((await app.request(url)).status).toBe(404);
    const again = await call(
      app,
      '/tools/api/convert',
      json('POST', { source: { fileId: upload.data.fileId }, formats: ['ttf'] }),
    );
    expect(again.status).toBe(404);
  });

  test('the sweeper removes partial files and empty folders a killed process left, once they are old', async () => {
    const root = path.join(library.dataDir, 'storage');
    const old = new Date(Date.now() - 2 * 60 * 60_000);
    fs.mkdirSync(path.join(root, '.tmp'), { recursive: true });
    fs.writeFileSync(path.join(root, '.tmp', 'killed.part'), 'half a font');
    fs.utimesSync(path.join(root, '.tmp', 'killed.part'), old, old);
    fs.writeFileSync(path.join(root, '.tmp', 'writing.part'), 'a font being received now');
    fs.mkdirSync(path.join(root, 'tools', 'uploads', 'cut-off', 'inner'), { recursive: true });
    for (const dir of ['tools/uploads/cut-off/inner', 'tools/uploads/cut-off'])
      fs.utimesSync(path.join(root, dir), old, old);
    await sweepToolFiles();
    expect(fs.readdirSync(path.join(root, '.tmp'))).toEqual(['writing.part']);
    expect(fs.existsSync(path.join(root, 'tools', 'uploads', 'cut-off'))).toBe(false);
    expect(fs.existsSync(path.join(root, 'tools', 'uploads'))).toBe(true);
  });

  test('uploads and outputs are not served by /files, only by the expiring no-store tool routes', async () => {
    const upload = await uploadFont(app, TTF, 'font.ttf');
    const keys = await storedFiles(library.dataDir, `tools/uploads/${upload.data.fileId}`);
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) expect((await app.request(`/files/${key}`)).status).toBe(404);
    const job = await convert({ fileId: upload.data.fileId }, ['woff']);
    const res = await app.request(job.result?.files[0]?.url ?? '');
    expect(res.status).toBe(200);
    expect(res.headers.get('Cache-Control')).toBe('private, no-store');
  });
});
