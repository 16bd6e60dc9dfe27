// The library grows after start: families seeded in the background from a registry (here a local
// one answering the npm tarball protocol with fixture packages) show up in the list API and in
// search without a restart, while the site answers from the start; a family that fails leaves
// nothing behind and is tried again on the next run. The families the site's articles use come
// first, each article following its family; with no registry at all the site serves what it has
// and the log names what is missing.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eq, like } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { createApp } from '../../src/server/app.ts';
import { articles, fontFamilies, fonts } from '../../src/server/db/schema/index.ts';
import { seedLibraryInBackground } from '../../src/server/db/seed/background.ts';
import { seedContent } from '../../src/server/db/seed/content-seed.ts';
import { type CatalogueEntry, FIXTURE_CATALOGUE, FONT_CATALOGUE } from '../../src/server/db/seed/font-catalogue.ts';
import { libraryGrowth } from '../../src/server/db/seed/library-plan.ts';
import { resetEnv } from '../../src/server/env.ts';
import type { FontResource, Page } from '../../src/server/fonts/catalogue.ts';
import { log } from '../../src/server/log.ts';
import { storage } from '../../src/server/storage/index.ts';
import { closeSubsetPool } from '../../src/server/webfont/subset.ts';
import { entryFor, FakeRegistry, fixtureFont, license, pack, VERSION } from '../helpers/fake-registry.ts';
import { call, type LibraryFixture, openFixtureLibrary } from '../helpers/font-library.ts';

/** Polls `read` until `ok` holds for its value, at most `tries` times; answers the last value. */
async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, tries = 200): Promise<T> {
  let value = await read();
  for (let i = 0; i < tries && !ok(value); i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  return value;
}

let library: LibraryFixture;
let app: Hono;
const registry = new FakeRegistry();
let yanta: CatalogueEntry;
let broken: CatalogueEntry;
let late: CatalogueEntry;
let lateRightBytes: Buffer;

const list = () => call<Page<FontResource>>(app, '/web/api/fontOverride/getFontList?size=24');
const listed = async () => (await list()).data.records.map((record) => record.fontGNo).sort();
const found = async (keyword: string) =>
  (
    await call<Page<{ type: string; id: string }>>(
      app,
      `/web/api/web-findAll/getByParameter?type=font&keyword=${encodeURIComponent(keyword)}`,
    )
  ).data.records.map((record) => record.id);

beforeAll(async () => {
  // The first families: the fixture library, seeded before the site answers.
  library = await openFixtureLibrary('growth');
  process.env['NPM_REGISTRY'] = await registry.listen();
  process.env['FONT_SEED'] = 'registry';
  resetEnv();

  const yantaBytes = await pack({
    '400Regular/MaShanZheng_400Regular.ttf': fixtureFont('ma-shan-zheng/MaShanZheng_400Regular.ttf'),
    LICENSE_FONT: license,
  });
  // The first font is good, the second is not a font: the family fails after a file was stored.
  const brokenBytes = await pack({
    '400Regular/A_400Regular.ttf': fixtureFont('zcool-kuaile/ZCOOLKuaiLe_400Regular.ttf'),
    '700Bold/B_700Bold.ttf': Buffer.from('not a font at all'),
    LICENSE_FONT: license,
  });
  lateRightBytes = await pack({
    '400Regular/NotoSansSC_400Regular.ttf': fixtureFont('noto-sans-sc/NotoSansSC_400Regular.ttf'),
    '700Bold/NotoSansSC_700Bold.ttf': fixtureFont('noto-sans-sc/NotoSansSC_700Bold.ttf'),
    LICENSE_FONT: license,
  });
  yanta = entryFor('yanta-kai', '雁塔楷书', yantaBytes);
  broken = entryFor('broken-family', '残缺字体', brokenBytes);
  late = entryFor('late-gothic', '晚到黑体', lateRightBytes);
  registry.packages.set(yanta.gno, yantaBytes);
  registry.packages.set(broken.gno, brokenBytes);
  registry.packages.set(late.gno, lateRightBytes);
  app = createApp();
});

afterAll(async () => {
  registry.release();
  registry.server.close();
  fs.rmSync(contentDir, { recursive: true, force: true });
  await closeSubsetPool();
  await library.close();
});

const background = () => [yanta, broken, late];
const wholeLibrary = () => [...FIXTURE_CATALOGUE, ...background()];
// The site's articles for these runs: none, unless a test writes some.
const contentDir = fs.mkdtempSync(path.join(os.tmpdir(), 'font-alliance-growth-content-'));
const inBackground = (catalogue: CatalogueEntry[], extra: Parameters<typeof seedLibraryInBackground>[0] = {}) =>
  seedLibraryInBackground({ catalogue, library: wholeLibrary(), contentDir, ...extra });

describe('the library seeded in the background', () => {
  test('stops between families when asked, keeping nothing of the family in flight', async () => {
    registry.hold();
    const seeding = inBackground([yanta]);
    await until(
      async () => registry.requested.length,
      (n) => n > 0,
    );
    await seeding.stop();
    registry.release();
    const result = await seeding.done;
    expect(result.seeded).toEqual([]);
    expect(result.failed).toEqual([]);
    expect(await library.db.select().from(fontFamilies).where(eq(fontFamilies.gno, yanta.gno))).toEqual([]);
    expect(await storage().list(`fonts/${yanta.gno}`)).toEqual([]);
  });

  test('is served from the start, and the list and search grow as families arrive', async () => {
    fs.rmSync(path.join(library.dataDir, 'cache/npm'), { recursive: true, force: true });
    registry.requested.length = 0;
    // The copy of late-gothic the registry has first does not match its integrity.
    registry.swap.set(late.gno, Buffer.concat([lateRightBytes, Buffer.from('tampered')]));
    registry.hold();
    const seeding = inBackground(background());
    await until(
      async () => registry.requested.length,
      (n) => n > 0,
    );

    // The site answers while the first download is still held: the first families only.
    const before = await list();
    expect(before.status).toBe(200);
    expect(before.data.total).toBe(3);
    expect(await found('雁塔')).toEqual([]);
    // A second read comes from the answer cache, which the arriving families have to purge.
    expect((await app.request('/web/api/fontOverride/getFontList?size=24')).headers.get('X-Answer-Cache')).toBe('HIT');

    registry.release();
    const grown = await until(listed, (gnos) => gnos.includes(yanta.gno));
    expect(grown).toEqual(['ma-shan-zheng', 'noto-sans-sc', yanta.gno, 'zcool-kuaile']);
    expect(
      await until(
        () => found('雁塔'),
        (ids) => ids.length > 0,
      ),
    ).toEqual([yanta.gno]);

    const result = await seeding.done;
    expect(result.seeded).toEqual([yanta.gno]);
    expect(result.failed.map((failure) => failure.gno).sort()).toEqual([broken.gno, late.gno]);
    expect(await listed()).toEqual(['ma-shan-zheng', 'noto-sans-sc', yanta.gno, 'zcool-kuaile']);

    // The family that failed after storing its first font left neither rows nor files.
    expect(await library.db.select().from(fontFamilies).where(eq(fontFamilies.gno, broken.gno))).toEqual([]);
    expect(
      await library.db
        .select()
        .from(fonts)
        .where(like(fonts.gno, `${broken.gno}%`)),
    ).toEqual([]);
    expect(await storage().list(`fonts/${broken.gno}`)).toEqual([]);
    expect(await storage().list(`fonts/${late.gno}`)).toEqual([]);
    expect(fs.readdirSync(path.join(library.dataDir, 'cache/tmp'))).toEqual([]);
    const [kept] = await library.db.select().from(fontFamilies).where(eq(fontFamilies.gno, yanta.gno));
    expect(kept).toMatchObject({ nameZh: '雁塔楷书', category: '3', script: '3', sourceVersion: VERSION });
  });

  test('tries the families that failed again on the next run, and only those', async () => {
    registry.swap.delete(late.gno);
    registry.requested.length = 0;
    const result = await inBackground(background()).done;
    expect(result.skipped).toEqual([yanta.gno]);
    expect(result.seeded).toEqual([late.gno]);
    expect(result.failed.map((failure) => failure.gno)).toEqual([broken.gno]);
    // The packages that matched their integrity are in the cache; only the tampered one is asked for again.
    expect(registry.requested).toEqual([late.gno]);
    expect(await until(listed, (gnos) => gnos.includes(late.gno))).toContain(late.gno);
    const faces = await library.db
      .select()
      .from(fonts)
      .where(like(fonts.gno, `${late.gno}%`));
    expect(faces.map((face) => face.weight).sort()).toEqual([400, 700]);
  });
});

describe('the library note', () => {
  test('tells how far the library has grown while families are missing, and nothing once it is whole', async () => {
    // FONT_SEED=registry here: of the catalogue, the three fixture families are in the database.
    const present = FONT_CATALOGUE.filter((entry) => FIXTURE_CATALOGUE.some((fixture) => fixture.gno === entry.gno));
    expect(await libraryGrowth()).toEqual({ have: present.length, total: FONT_CATALOGUE.length });
    process.env['FONT_SEED'] = 'fixtures';
    resetEnv();
    try {
      expect(await libraryGrowth()).toBeUndefined();
    } finally {
      process.env['FONT_SEED'] = 'registry';
      resetEnv();
    }
  });
});

describe('the families the site uses come first', () => {
  test('a family an article is drawn in comes before smaller ones, and the article follows it at once', async () => {
    // The larger family (two weights) is the one an article names; the smaller one no item uses.
    const inkBytes = await pack({
      '400Regular/NotoSansSC_400Regular.ttf': fixtureFont('noto-sans-sc/NotoSansSC_400Regular.ttf'),
      '700Bold/NotoSansSC_700Bold.ttf': fixtureFont('noto-sans-sc/NotoSansSC_700Bold.ttf'),
      LICENSE_FONT: license,
    });
    const pineBytes = await pack({
      '400Regular/MaShanZheng_400Regular.ttf': fixtureFont('ma-shan-zheng/MaShanZheng_400Regular.ttf'),
      LICENSE_FONT: license,
    });
    const ink = entryFor('ink-wash-hei', '水墨黑体', inkBytes);
    const pine = entryFor('pine-kai', '松风楷书', pineBytes);
    registry.packages.set(ink.gno, inkBytes);
    registry.packages.set(pine.gno, pineBytes);
    fs.mkdirSync(path.join(contentDir, 'news'), { recursive: true });
    fs.writeFileSync(
      path.join(contentDir, 'news', 'ink-wash.md'),
      '---\ntitle: 水墨黑体发布\nsummary: 一款新的黑体。\npublishedAt: 2026-01-02\nfonts: [ink-wash-hei]\n---\n\n正文。\n',
    );
    const article = async () => (await library.db.select().from(articles).where(eq(articles.slug, 'news/ink-wash')))[0];

    // Before the site answers, the article waits for its family instead of being drawn without it.
    const before = await seedContent({ dir: contentDir, awaitedFamilies: new Set([ink.gno, pine.gno]) });
    expect(before.waiting).toEqual([{ item: 'news/ink-wash', families: [ink.gno] }]);
    expect(await article()).toBeUndefined();

    registry.requested.length = 0;
    registry.hold();
    const seeding = inBackground([pine, ink], { library: [...wholeLibrary(), ink, pine] });
    await until(
      async () => registry.requested.length,
      (n) => n > 0,
    );
    expect(registry.requested).toEqual([ink.gno]);
    expect(await article()).toBeUndefined();
    registry.release();
    const result = await seeding.done;
    expect(result.seeded).toEqual([ink.gno, pine.gno]);
    expect(registry.requested).toEqual([ink.gno, pine.gno]);
    const added = await article();
    expect(added?.title).toBe('水墨黑体发布');
    expect(added?.coverKey).toMatch(/^covers\/news\/ink-wash-[0-9a-f]{12}\.webp$/);
  });

  test('with no registry to reach, the site serves what it has, seeds what is cached and names what is missing', async () => {
    const farBytes = await pack({
      '400Regular/ZCOOLKuaiLe_400Regular.ttf': fixtureFont('zcool-kuaile/ZCOOLKuaiLe_400Regular.ttf'),
      LICENSE_FONT: license,
    });
    const nearBytes = await pack({
      '400Regular/NotoSansSC_400Regular.ttf': fixtureFont('noto-sans-sc/NotoSansSC_400Regular.ttf'),
      '700Bold/NotoSansSC_700Bold.ttf': fixtureFont('noto-sans-sc/NotoSansSC_700Bold.ttf'),
      LICENSE_FONT: license,
    });
    const far = entryFor('far-away-yuan', '远山圆体', farBytes);
    // A package already in the download cache (a copied cache, an earlier start cut short).
    const near = entryFor('near-shore-hei', '近岸黑体', nearBytes);
    fs.mkdirSync(path.join(library.dataDir, 'cache/npm'), { recursive: true });
    fs.writeFileSync(path.join(library.dataDir, 'cache/npm', `${near.gno}-${VERSION}.tgz`), nearBytes);

    // Nothing listens where the registry should be.
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    const savedRegistry = process.env['NPM_REGISTRY'];
    process.env['NPM_REGISTRY'] = `http://127.0.0.1:${port}/`;
    resetEnv();
    const warned: string[] = [];
    const warn = vi.spyOn(log(), 'warn').mockImplementation(((message: unknown) => {
      warned.push(String(message));
    }) as never);
    const back = new FakeRegistry();
    const seeding = inBackground([far, near], { library: [...wholeLibrary(), far, near], retryMs: 200 });
    try {
      await until(
        async () => warned.join('\n'),
        (text) => text.includes('cannot be reached'),
      );
      const line = warned.find((text) => text.includes('cannot be reached')) ?? '';
      expect(line).toContain(`127.0.0.1:${port}`);
      expect(line).toContain(far.gno);
      expect(line).not.toContain(near.gno);
      // The site answers with what it has, the cached family included.
      const listedNow = await until(listed, (gnos) => gnos.includes(near.gno));
      expect(listedNow).toContain(near.gno);
      expect(listedNow).not.toContain(far.gno);

      // The registry comes back: the next try brings the missing family without a restart.
      back.packages.set(far.gno, farBytes);
      await back.listen(port);
      expect(await until(listed, (gnos) => gnos.includes(far.gno))).toContain(far.gno);
    } finally {
      await seeding.stop();
      warn.mockRestore();
      back.server.close();
      process.env['NPM_REGISTRY'] = savedRegistry;
      resetEnv();
    }
  }, 60_000);
});
