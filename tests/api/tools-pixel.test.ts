import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { PixelEdit, PixelPreview, PixelProject, PixelProjectSummary } from '../../src/contract/tools.ts';
import { fontFamilies, fonts, jobs } from '../../src/server/db/schema/index.ts';
import { readFontMetadata } from '../../src/server/engine/metadata.ts';
import { GlyphRasterizer } from '../../src/server/engine/pixel/rasterize.ts';
import { acquireFace } from '../../src/server/engine/text/font-registry.ts';
import { pixelProjectRoutes } from '../../src/server/tools/pixel-projects.ts';
import {
  as,
  call,
  headerAccount,
  insertAccount,
  json,
  type LibraryFixture,
  routesApp,
} from '../helpers/font-library.ts';
import { cmapByFontTools, passesOts } from '../helpers/font-oracle.ts';
import { closeToolsApp, type JobAnswer, openToolsApp, waitForJob } from '../helpers/tools.ts';

let library: LibraryFixture;
let app: Hono;
let notoRegular: number;

const TEXT = '永和九年 Pixel';

beforeAll(async () => {
  ({ library, app } = await openToolsApp('tools-pixel'));
  const [row] = await library.db
    .select({ id: fonts.id })
    .from(fonts)
    .innerJoin(fontFamilies, eq(fonts.familyId, fontFamilies.id))
    .where(and(eq(fontFamilies.gno, 'noto-sans-sc'), eq(fonts.weight, 400)));
  notoRegular = row?.id as number;
});
afterAll(() => closeToolsApp(library));

const preview = (body: Record<string, unknown>) =>
  call<PixelPreview>(
    app,
    '/tools/api/pixel/preview',
    json('POST', { source: { fontId: notoRegular }, options: { grid: 16 }, text: TEXT, ...body }),
  );

async function make(body: Record<string, unknown>): Promise<JobAnswer> {
  const started = await call<{ jobId: string }>(
    app,
    '/tools/api/pixel',
    json('POST', { source: { fontId: notoRegular }, options: { grid: 16 }, text: TEXT, family: '像素黑体', ...body }),
  );
  expect(started.status, started.message).toBe(200);
  return waitForJob(app, started.data.jobId, 120_000);
}

async function download(url: string): Promise<Uint8Array> {
  const res = await app.request(url);
  expect(res.status).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

describe('POST /tools/api/pixel/preview', () => {
  test('draws the line as a PNG and answers each glyph on its grid', async () => {
    const answer = await preview({ text: '永和永𠀀' });
    expect(answer.status, answer.message).toBe(200);
    const png = Buffer.from(answer.data.image.replace(/^data:image\/png;base64,/, ''), 'base64');
    const meta = await sharp(png).metadata();
    expect(meta.format).toBe('png');
    expect([meta.width, meta.height]).toEqual([answer.data.width, answer.data.height]);
    expect(answer.data.missing).toBe('𠀀');
    expect(answer.data.glyphs.map((glyph) => String.fromCodePoint(glyph.codePoint))).toEqual(['永', '和']);
    for (const glyph of answer.data.glyphs) {
      expect(glyph.width).toBe(16);
      expect(glyph.bits).toHaveLength(16 * 16);
      expect(glyph.bits).toMatch(/1/);
    }
    // A lower threshold draws bolder strokes: more ink in the same glyph.
    const bold = await preview({ text: '永', options: { grid: 16, threshold: 0.2 } });
    const ink = (bits: string) => bits.split('').filter((bit) => bit === '1').length;
    expect(ink(bold.data.glyphs[0]?.bits ?? '')).toBeGreaterThan(ink(answer.data.glyphs[0]?.bits ?? ''));
  });

  test.each([
    [{ options: { grid: 0 } }, '点阵尺寸至少 8 像素'],
    [{ options: { grid: 1000 } }, '点阵尺寸最多 48 像素'],
    [{ options: { grid: 12.5 } }, '点阵尺寸必须是 8 到 48 之间的整数'],
    [{ options: { grid: 16, shape: 'star' } }, '像素形状'],
    [{ text: '' }, '请输入预览文字'],
    [{ text: '字'.repeat(41) }, '预览文字最多 40 个字符'],
    [{ text: '𠀀' }, '这款字体里没有预览文字中的任何字符'],
    [{ source: { fontId: 99999 } }, '字体库中没有编号为 99999 的字体'],
    [{ edits: [{ codePoint: 0x6c38, width: 16, bits: '1' }] }, '字形编辑与点阵尺寸不一致'],
  ])('refuses %j with a Chinese message', async (change, message) => {
    const answer = await preview(change);
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(answer.message).toContain(message);
  });
});

describe('POST /tools/api/pixel', () => {
  test('makes TTF, WOFF and WOFF2 that pass OTS, map exactly the chosen characters and draw the previewed pixels', async () => {
    const job = await make({ weight: 700 });
    expect(job.state, job.error).toBe('done');
    const result = job.result as NonNullable<JobAnswer['result']> & { keptCount: number; familyName: string };
    expect(result.files.map((file) => file.format)).toEqual(['ttf', 'woff', 'woff2']);
    expect(result.zipUrl).toBeTruthy();
    const expected = [...new Set([...TEXT].map((ch) => ch.codePointAt(0) ?? 0))].sort((a, b) => a - b);
    expect(result.keptCount).toBe(expected.length);
    for (const file of result.files) {
      const bytes = await download(file.url);
      expect(passesOts(bytes), `${file.name} passes ots-sanitize`).toBe(true);
      expect(cmapByFontTools(bytes)).toEqual(expected);
    }
    const ttf = await download(result.files[0]?.url as string);
    const meta = readFontMetadata(ttf);
    expect(meta.familyNameZhHans).toBe('像素黑体');
    expect(meta.weight).toBe(700);
    expect(meta.unitsPerEm).toBe(16 * 64);

    // Drawn back by another renderer (Skia, from the TTF just made), every glyph has the preview's pixels.
    const shown = await preview({ text: TEXT });
    const back = new GlyphRasterizer(acquireFace({ bytes: ttf }), 16);
    try {
      for (const glyph of shown.data.glyphs) {
        const drawn = back.draw(glyph.codePoint, 0.5);
        expect(drawn?.bitmap.width, String.fromCodePoint(glyph.codePoint)).toBe(glyph.width);
        expect(Array.from(drawn?.bitmap.bits ?? [], String).join(''), String.fromCodePoint(glyph.codePoint)).toBe(
          glyph.bits,
        );
      }
    } finally {
      back.close();
    }

    // The family installs: fontconfig reads its names.
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pixel-')), 'pixel.ttf');
    fs.writeFileSync(file, ttf);
    expect(execFileSync('fc-scan', ['--format', '%{family}', file], { encoding: 'utf8' })).toContain('像素黑体');
  }, 120_000);

  test('hand edits replace the drawn glyph, and round dots and gapped squares are fonts too', async () => {
    const solid: PixelEdit = { codePoint: 0x6c38, width: 16, bits: '1'.repeat(256) };
    const edited = await make({ text: '永', edits: [solid] });
    expect(edited.state, edited.error).toBe('done');
    const ttf = await download(edited.result?.files[0]?.url as string);
    const back = new GlyphRasterizer(acquireFace({ bytes: ttf }), 16);
    try {
      expect(Array.from(back.draw(0x6c38, 0.5)?.bitmap.bits ?? []).every((bit) => bit === 1)).toBe(true);
    } finally {
      back.close();
    }
    for (const shape of ['round', 'gapped']) {
      const job = await make({ text: '永和', options: { grid: 12, shape } });
      expect(job.state, job.error).toBe('done');
      for (const file of job.result?.files ?? []) expect(passesOts(await download(file.url)), file.name).toBe(true);
    }
  }, 120_000);

  test.each([
    [{ options: { grid: 1000 } }, '点阵尺寸最多 48 像素'],
    [{ text: '字'.repeat(50_000) }, '文字最多 20000 个字符'],
    [{ text: '𠀀𠀁' }, '这款字体里没有所选的任何字符'],
    [{ text: '' }, '请选择字符集或输入要包含的文字'],
    [{ family: '' }, '请填写字体名称'],
    [{ family: 'a/b' }, '字体名称不能包含'],
    [{ weight: 450 }, '字重只能是 100 到 900 之间的整百数'],
  ])('refuses %j with a Chinese message and starts no job', async (change, message) => {
    const before = (await library.db.select({ id: jobs.id }).from(jobs)).length;
    const answer = await call(
      app,
      '/tools/api/pixel',
      json('POST', {
        source: { fontId: notoRegular },
        options: { grid: 16 },
        text: TEXT,
        family: '像素黑体',
        ...change,
      }),
    );
    expect(answer.status).toBe(400);
    expect(answer.message).toContain(message);
    expect((await library.db.select({ id: jobs.id }).from(jobs)).length).toBe(before);
  });
});

describe('saved projects', () => {
  let projects: Hono;
  let alice: number;
  let bob: number;
  const project = {
    name: '我的像素黑',
    source: { fontId: 1 },
    sourceLabel: '思源黑体（简体）',
    options: { grid: 12, threshold: 0.4, shape: 'round' },
    charsets: ['gb2312'],
    family: '像素黑',
    weight: 400,
    edits: [{ codePoint: 0x6c38, width: 12, bits: '1'.repeat(144) }],
  };

  beforeAll(async () => {
    alice = await insertAccount(library.db, 'pixel-alice@example.com');
    bob = await insertAccount(library.db, 'pixel-bob@example.com');
    projects = routesApp((routes) => routes.route('/tools/api', pixelProjectRoutes({ account: headerAccount })));
  });

  test('a user saves a project, reopens it whole, updates it, and only they can see or delete it', async () => {
    const saved = await call<PixelProjectSummary>(
      projects,
      '/tools/api/pixel/projects',
      as(alice, json('POST', project)),
    );
    expect(saved.status, saved.message).toBe(200);
    expect(saved.data).toMatchObject({
      name: '我的像素黑',
      grid: 12,
      editedGlyphs: 1,
      sourceLabel: '思源黑体（简体）',
    });
    const id = saved.data.id;

    const opened = await call<PixelProject>(projects, `/tools/api/pixel/projects/${id}`, as(alice));
    expect(opened.data.data).toMatchObject({ options: project.options, edits: project.edits, family: '像素黑' });
    const updated = await call(
      projects,
      `/tools/api/pixel/projects/${id}`,
      as(alice, json('PUT', { ...project, name: '改名了', edits: [] })),
    );
    expect(updated.status).toBe(200);
    const list = await call<PixelProjectSummary[]>(projects, '/tools/api/pixel/projects', as(alice));
    expect(list.data).toEqual([expect.objectContaining({ id, name: '改名了', editedGlyphs: 0 })]);

    expect((await call(projects, `/tools/api/pixel/projects/${id}`, as(bob))).status).toBe(404);
    expect((await call(projects, `/tools/api/pixel/projects/${id}`, as(bob, { method: 'DELETE' }))).status).toBe(404);
    expect((await call<PixelProjectSummary[]>(projects, '/tools/api/pixel/projects', as(bob))).data).toEqual([]);
    expect((await call(projects, '/tools/api/pixel/projects')).status).toBe(401);

    expect((await call(projects, `/tools/api/pixel/projects/${id}`, as(alice, { method: 'DELETE' }))).status).toBe(200);
    expect((await call<PixelProjectSummary[]>(projects, '/tools/api/pixel/projects', as(alice))).data).toEqual([]);
  });

  test.each([
    [{ name: '' }, '请填写项目名称'],
    [{ edits: [{ codePoint: 0x6c38, width: 12, bits: '1' }] }, '字形编辑与点阵尺寸不一致'],
    [{ options: { grid: 99 } }, '点阵尺寸最多 48 像素'],
  ])('refuses %j with a Chinese message and saves nothing', async (change, message) => {
    const answer = await call(
      projects,
      '/tools/api/pixel/projects',
      as(alice, json('POST', { ...project, ...change })),
    );
    expect(answer.status).toBe(400);
    expect(answer.message).toContain(message);
    expect((await call<PixelProjectSummary[]>(projects, '/tools/api/pixel/projects', as(alice))).data).toEqual([]);
  });
});
