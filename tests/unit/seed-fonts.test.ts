import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fontDicts, fontFamilies, fonts } from '../../src/server/db/schema/index.ts';
import { readContentFiles } from '../../src/server/db/seed/content-files.ts';
import { type CatalogueEntry, FONT_CATALOGUE } from '../../src/server/db/seed/font-catalogue.ts';
import { type SeedFontsProgress, seedFonts, sizeOf } from '../../src/server/db/seed/fonts.ts';
import { seedingOrder } from '../../src/server/db/seed/library-plan.ts';
import { resetEnv } from '../../src/server/env.ts';
import { LocalStorage } from '../../src/server/storage/index.ts';
import { openTestDatabase, type TestDatabase } from '../helpers/database.ts';

const FIXTURES = path.resolve('tests/fixtures/fonts');
let dataDir: string;
let savedEnv: NodeJS.ProcessEnv;

function useDataDir(dir: string, extra: Record<string, string> = {}) {
  process.env['DATA_DIR'] = dir;
  Object.assign(process.env, extra);
  resetEnv();
}

beforeAll(() => {
  savedEnv = { ...process.env };
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'font-alliance-seed-'));
  useDataDir(dataDir, { LOG_LEVEL: 'silent' });
});
afterAll(() => {
  process.env = savedEnv;
  resetEnv();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('seedFonts from fixtures', () => {
  let database: TestDatabase;
  let store: LocalStorage;
  beforeAll(async () => {
    database = await openTestDatabase();
    store = new LocalStorage(path.join(dataDir, 'storage'));
  });
  afterAll(() => database.close());

  test('seeds the three fixture families, their fonts, files and the font dictionary', async () => {
    const result = await seedFonts({ source: 'fixtures', db: database.db, storage: store });
    expect(result.failed).toEqual([]);
    expect(result.seeded.sort()).toEqual(['ma-shan-zheng', 'noto-sans-sc', 'zcool-kuaile']);
    expect(result.downloadedBytes).toBe(0);

    const families = await database.db.select().from(fontFamilies).orderBy(fontFamilies.gno);
    expect(families.map((f) => [f.gno, f.nameZh, f.nameEn, f.category, f.script])).toEqual([
      ['ma-shan-zheng', '马善政毛笔楷书', 'Ma Shan Zheng', '7', '1'],
      ['noto-sans-sc', '思源黑体（简体）', 'Noto Sans SC', '1', '1'],
      ['zcool-kuaile', '站酷快乐体', 'ZCOOL KuaiLe', '8', '1'],
    ]);
    const noto = families.find((f) => f.gno === 'noto-sans-sc');
    expect(noto?.licenseText).toMatch(/^\(c\) 2014-2021 Adobe .*\n\nThis Font Software is licensed under the SIL Open/);
    expect(noto?.license).toBe('OFL-1.1');
    expect(noto?.commercialFree).toBe(true);
    expect(noto?.coverageLatin).toBe(95);
    expect(noto?.sourcePackage).toBe('fixtures/noto-sans-sc');

    const children = await database.db.select().from(fonts).orderBy(fonts.gno);
    expect(children.map((f) => [f.gno, f.weight, f.styleName, f.fileKey])).toEqual([
      ['ma-shan-zheng-400', 400, 'Regular', 'fonts/ma-shan-zheng/MaShanZheng_400Regular.ttf'],
      ['noto-sans-sc-400', 400, 'Regular', 'fonts/noto-sans-sc/NotoSansSC_400Regular.ttf'],
      ['noto-sans-sc-700', 700, 'Bold', 'fonts/noto-sans-sc/NotoSansSC_700Bold.ttf'],
      ['zcool-kuaile-400', 400, 'Regular', 'fonts/zcool-kuaile/ZCOOLKuaiLe_400Regular.ttf'],
    ]);
    for (const child of children) {
      const original = fs.readFileSync(path.join(FIXTURES, child.fileKey.replace(/^fonts\//, '')));
      const stored = fs.readFileSync(path.join(store.root, child.fileKey));
      expect(stored.equals(original)).toBe(true);
      expect(child.fileSize).toBe(original.length);
      expect(child.sha256).toBe(createHash('sha256').update(original).digest('hex'));
    }

    const categories = await database.db.select().from(fontDicts).where(eq(fontDicts.dictKey, 'category'));
    expect(categories.map((d) => d.label)).toContain('黑体');
    expect(categories).toHaveLength(9);
  });

  test('changes nothing on a second run', async () => {
    const before = await database.db.select().from(fontFamilies).orderBy(fontFamilies.id);
    const mtime = fs.statSync(path.join(store.root, 'fonts/zcool-kuaile/ZCOOLKuaiLe_400Regular.ttf')).mtimeMs;
    const events: SeedFontsProgress[] = [];
    const result = await seedFonts({
      source: 'fixtures',
      db: database.db,
      storage: store,
      onProgress: (e) => events.push(e),
    });
    expect(result.seeded).toEqual([]);
    expect(result.skipped.sort()).toEqual(['ma-shan-zheng', 'noto-sans-sc', 'zcool-kuaile']);
    expect(events).toEqual([]);
    expect(await database.db.select().from(fontFamilies).orderBy(fontFamilies.id)).toEqual(before);
    expect(fs.statSync(path.join(store.root, 'fonts/zcool-kuaile/ZCOOLKuaiLe_400Regular.ttf')).mtimeMs).toBe(mtime);
  });

  test('seeds a family again when one of its files is missing from storage', async () => {
    await store.delete('fonts/noto-sans-sc/NotoSansSC_700Bold.ttf');
    const result = await seedFonts({ source: 'fixtures', db: database.db, storage: store });
    expect(result.seeded).toEqual(['noto-sans-sc']);
    expect((await store.stat('fonts/noto-sans-sc/NotoSansSC_700Bold.ttf'))?.size).toBeGreaterThan(0);
  });
});

describe('seedFonts from a registry', () => {
  const name = 'zcool-kuaile';
  const version = '9.9.9';
  let server: http.Server;
  let requests = 0;
  let tarball: Buffer;
  let entry: CatalogueEntry;
  let database: TestDatabase;
  const store = () => new LocalStorage(path.join(dataDir, 'storage'));

  beforeAll(async () => {
    // A package laid out like @expo-google-fonts: one folder per weight and LICENSE_FONT at the root.
    const packDir = fs.mkdtempSync(path.join(os.tmpdir(), 'font-alliance-pack-'));
    fs.mkdirSync(path.join(packDir, 'package/400Regular'), { recursive: true });
    fs.copyFileSync(
      path.join(FIXTURES, 'zcool-kuaile/ZCOOLKuaiLe_400Regular.ttf'),
      path.join(packDir, 'package/400Regular/ZCOOLKuaiLe_400Regular.ttf'),
    );
    fs.writeFileSync(
      path.join(packDir, 'package/LICENSE_FONT'),
      'Copyright test\n\nSIL OPEN FONT LICENSE Version 1.1\n',
    );
    fs.writeFileSync(path.join(packDir, 'package/index.js'), 'module.exports = {};\n');
    await tar.c({ gzip: true, file: path.join(packDir, 'pkg.tgz'), cwd: packDir }, ['package']);
    tarball = fs.readFileSync(path.join(packDir, 'pkg.tgz'));
    fs.rmSync(packDir, { recursive: true, force: true });

    server = http.createServer((req, res) => {
      if (req.url !== `/@expo-google-fonts/${name}/-/${name}-${version}.tgz`) {
        res.writeHead(404).end();
        return;
      }
      requests++;
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' }).end(tarball);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    useDataDir(dataDir, { NPM_REGISTRY: `http://127.0.0.1:${port}/` });

    const base = FONT_CATALOGUE.find((candidate) => candidate.gno === name);
    if (!base) throw new Error('catalogue entry missing');
    const integrity = `sha512-${createHash('sha512').update(tarball).digest('base64')}`;
    entry = {
      ...base,
      source: { kind: 'registry', scope: '@expo-google-fonts', name, version, size: tarball.length, integrity },
    };
    database = await openTestDatabase();
  });
  afterAll(async () => {
    server.close();
    await database.close();
  });

  test('downloads the tarball once into the cache, reporting bytes, and seeds from it', async () => {
    const events: SeedFontsProgress[] = [];
    const result = await seedFonts({
      source: 'registry',
      catalogue: [entry],
      db: database.db,
      storage: store(),
      onProgress: (e) => events.push(e),
    });
    expect(result.failed).toEqual([]);
    expect(result.seeded).toEqual([name]);
    expect(result.downloadedBytes).toBe(tarball.length);
    expect(requests).toBe(1);
    expect(fs.readFileSync(path.join(dataDir, 'cache/npm', `${name}-${version}.tgz`)).equals(tarball)).toBe(true);
    expect(events.at(-1)).toMatchObject({
      bytesDone: tarball.length,
      bytesTotal: tarball.length,
      familiesDone: 1,
      familiesTotal: 1,
    });
    expect(events.some((e) => e.phase === 'download')).toBe(true);

    const [family] = await database.db.select().from(fontFamilies).where(eq(fontFamilies.gno, name));
    expect(family?.licenseText).toBe('Copyright test\n\nSIL OPEN FONT LICENSE Version 1.1\n');
    expect(family?.sourcePackage).toBe('@expo-google-fonts/zcool-kuaile');
    expect(family?.sourceVersion).toBe(version);
    // Only fonts and the licence are unpacked, and the work folder is gone.
    expect(fs.readdirSync(path.join(dataDir, 'cache/tmp'))).toEqual([]);
  });

  test('downloads nothing on a second run', async () => {
    const result = await seedFonts({ source: 'registry', catalogue: [entry], db: database.db, storage: store() });
    expect(result.skipped).toEqual([name]);
    expect(requests).toBe(1);
  });

  test('seeds from the cache without downloading when the database is new', async () => {
    const fresh = await openTestDatabase();
    try {
      const result = await seedFonts({ source: 'registry', catalogue: [entry], db: fresh.db, storage: store() });
      expect(result.seeded).toEqual([name]);
      expect(result.downloadedBytes).toBe(0);
      expect(requests).toBe(1);
    } finally {
      await fresh.close();
    }
  });

  test('reports a family whose download does not match its integrity, keeping nothing of it', async () => {
    const bad: CatalogueEntry = {
      ...entry,
      gno: 'tampered',
      source: {
        ...(entry.source as Extract<CatalogueEntry['source'], { kind: 'registry' }>),
        version,
        integrity: `sha512-${'A'.repeat(86)}==`,
      },
    };
    fs.rmSync(path.join(dataDir, 'cache/npm'), { recursive: true, force: true });
    const result = await seedFonts({ source: 'registry', catalogue: [bad], db: database.db, storage: store() });
    expect(result.seeded).toEqual([]);
    expect(result.failed).toEqual([{ gno: 'tampered', error: expect.stringMatching(/integrity/) }]);
    expect(fs.readdirSync(path.join(dataDir, 'cache/npm'))).toEqual([]);
    expect(await database.db.select().from(fontFamilies).where(eq(fontFamilies.gno, 'tampered'))).toEqual([]);
  });
});

describe('the registry catalogue', () => {
  test('holds every family the site content names, and seeds those first', async () => {
    // Items wait for the families they name; a name missing from the catalogue would never arrive.
    const { files, errors } = await readContentFiles();
    expect(errors).toEqual([]);
    const named = files.flatMap((file) => file.fonts.map((gno) => ({ file: `${file.kind}/${file.slug}`, gno })));
    expect(named.length).toBeGreaterThan(0);
    const family = (gno: string) =>
      FONT_CATALOGUE.find((entry) => gno === entry.gno || gno.startsWith(`${entry.gno}-`))?.gno ?? gno;
    const gnos = new Set(FONT_CATALOGUE.map((entry) => entry.gno));
    expect(named.filter(({ gno }) => !gnos.has(family(gno)))).toEqual([]);

    const order = seedingOrder(FONT_CATALOGUE, files).map((entry) => entry.gno);
    const used = new Set(named.map(({ gno }) => family(gno)));
    expect(order.slice(0, used.size).sort()).toEqual([...used].sort());
    // The others follow smallest first.
    const rest = order.slice(used.size).map((gno) => FONT_CATALOGUE.find((entry) => entry.gno === gno));
    const sizes = rest.map((entry) => (entry ? sizeOf(entry) : 0));
    expect(sizes).toEqual([...sizes].sort((a, b) => a - b));
  });
});
