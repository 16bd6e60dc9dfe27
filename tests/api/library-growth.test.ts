// The library grows after start: families seeded in the background from a registry (here a local
// one answering the npm tarball protocol with fixture packages) show up in the list API and in
// search without a restart, while the site answers from the start; a family that fails leaves
// nothing behind and is tried again on the next run.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eq, like } from 'drizzle-orm';
import type { Hono } from 'hono';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../src/server/app.ts';
import { fontFamilies, fonts } from '../../src/server/db/schema/index.ts';
import { seedLibraryInBackground } from '../../src/server/db/seed/background.ts';
import { type CatalogueEntry, FIXTURE_CATALOGUE } from '../../src/server/db/seed/font-catalogue.ts';
import { resetEnv } from '../../src/server/env.ts';
import type { FontResource, Page } from '../../src/server/fonts/catalogue.ts';
import { storage } from '../../src/server/storage/index.ts';
import { closeSubsetPool } from '../../src/server/webfont/subset.ts';
import { call, type LibraryFixture, openFixtureLibrary } from '../helpers/font-library.ts';

const FIXTURES = path.resolve('tests/fixtures/fonts');
const SCOPE = '@expo-google-fonts';
const VERSION = '1.0.0';

/** A package laid out like @expo-google-fonts: one folder per weight, LICENSE_FONT at the root. */
async function pack(files: Record<string, Buffer>): Promise<Buffer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'font-alliance-growth-pack-'));
  try {
    for (const [name, bytes] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, 'package', name)), { recursive: true });
      fs.writeFileSync(path.join(dir, 'package', name), bytes);
    }
    await tar.c({ gzip: true, file: path.join(dir, 'pkg.tgz'), cwd: dir }, ['package']);
    return fs.readFileSync(path.join(dir, 'pkg.tgz'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const fixtureFont = (file: string) => fs.readFileSync(path.join(FIXTURES, file));
const license = Buffer.from('Copyright test\n\nSIL OPEN FONT LICENSE Version 1.1\n');

function entryFor(gno: string, nameZh: string, tarball: Buffer): CatalogueEntry {
  return {
    gno,
    nameZh,
    category: '楷体',
    script: '日文',
    license: 'OFL-1.1',
    foundry: '测试字库',
    description: `${nameZh}，用于测试后台补充字库。`,
    source: {
      kind: 'registry',
      scope: SCOPE,
      name: gno,
      version: VERSION,
      size: tarball.length,
      integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`,
    },
  };
}

/**
 * A registry serving `packages` by name; while `gate` is set, every answer waits for it, so that a
 * test sees the seeding in flight. `swap` serves other bytes for a package (a corrupted copy).
 */
class FakeRegistry {
  readonly server: http.Server;
  readonly requested: string[] = [];
  readonly packages = new Map<string, Buffer>();
  readonly swap = new Map<string, Buffer>();
  private gate: Promise<void> | undefined;
  private openGate: (() => void) | undefined;

  constructor() {
    this.server = http.createServer((req, res) => {
      const name = /^\/@expo-google-fonts\/([a-z0-9-]+)\/-\/\1-1\.0\.0\.tgz$/.exec(req.url ?? '')?.[1] ?? '';
      this.requested.push(name);
      const body = this.swap.get(name) ?? this.packages.get(name);
      void (this.gate ?? Promise.resolve()).then(() => {
        if (!body) res.writeHead(404).end();
        else res.writeHead(200, { 'Content-Type': 'application/octet-stream' }).end(body);
      });
    });
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/`;
  }

  hold(): void {
    this.gate = new Promise((resolve) => {
      this.openGate = resolve;
    });
  }

  release(): void {
    this.openGate?.();
    this.gate = undefined;
  }
}

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
  await closeSubsetPool();
  await library.close();
});

const background = () => [yanta, broken, late];
const wholeLibrary = () => [...FIXTURE_CATALOGUE, ...background()];

describe('the library seeded in the background', () => {
  test('stops between families when asked, keeping nothing of the family in flight', async () => {
    registry.hold();
    const seeding = seedLibraryInBackground({ catalogue: [yanta], library: wholeLibrary() });
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
    const seeding = seedLibraryInBackground({ catalogue: background(), library: wholeLibrary() });
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
    const result = await seedLibraryInBackground({ catalogue: background(), library: wholeLibrary() }).done;
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
