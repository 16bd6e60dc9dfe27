// The library's 仿宋 comes from Debian (fonts-cwtex-fs): seeded in the background from a mirror, here
// a local one serving the real .deb (the CI keeps a copy, see .ci/run), checked against the SHA-256
// the catalogue pins, and then listed, counted by the 仿宋 filter and found by its names. While the
// mirror cannot be reached, the family is skipped with the line every failed family gets and tried
// again on the next run; the npm families are not held up by it.
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';

import { createApp } from '../../src/server/app.ts';
import { fontFamilies, fonts } from '../../src/server/db/schema/index.ts';
import { seedLibraryInBackground } from '../../src/server/db/seed/background.ts';
import { DEBIAN_FAMILIES, type DebianSource, FIXTURE_CATALOGUE } from '../../src/server/db/seed/font-catalogue.ts';
import { resetEnv } from '../../src/server/env.ts';
import type { FontResource, Page } from '../../src/server/fonts/catalogue.ts';
import type { FontDictionary } from '../../src/server/fonts/dictionary.ts';
import { log } from '../../src/server/log.ts';
import { storage } from '../../src/server/storage/index.ts';
import { closeSubsetPool } from '../../src/server/webfont/subset.ts';
import { call, type LibraryFixture, openFixtureLibrary } from '../helpers/font-library.ts';
import { passesOts } from '../helpers/font-oracle.ts';

const entry = DEBIAN_FAMILIES.find((family) => family.gno === 'cwtex-fangsong');
if (entry?.source.kind !== 'debian') throw new Error('the catalogue has no cwTeX 仿宋 from Debian');
const source: DebianSource = entry.source;
// Where .ci/run keeps the .deb (`apt-get download fonts-cwtex-fs`), as Debian's pool names it.
const DEB_DIR = process.env['DEBIAN_DEB_DIR'] ?? path.join(os.homedir(), '.cache/font-alliance-ci/debian');
const DEB = path.join(DEB_DIR, path.posix.basename(source.filename));

let library: LibraryFixture;
let app: Hono;
const requested: string[] = [];
const mirror = http.createServer((req, res) => {
  requested.push(req.url ?? '');
  if (req.url === `/debian/${source.filename}`) fs.createReadStream(DEB).pipe(res);
  else res.writeHead(404).end();
});

const inBackground = () =>
  seedLibraryInBackground({
    catalogue: [entry],
    library: [...FIXTURE_CATALOGUE, entry],
    contentDir: fs.mkdtempSync(path.join(os.tmpdir(), 'font-alliance-debian-content-')),
  });
const listed = async (query = '') =>
  (await call<Page<FontResource>>(app, `/web/api/fontOverride/getFontList?size=24${query}`)).data.records.map(
    (record) => record.fontGNo,
  );
const found = async (keyword: string) =>
  (
    await call<Page<{ id: string }>>(
      app,
      `/web/api/web-findAll/getByParameter?type=font&keyword=${encodeURIComponent(keyword)}`,
    )
  ).data.records.map((record) => record.id);

beforeAll(async () => {
  if (!fs.existsSync(DEB)) throw new Error(`${DEB} is missing: .ci/run fetches it (apt-get download fonts-cwtex-fs)`);
  library = await openFixtureLibrary('debian');
  process.env['FONT_SEED'] = 'registry';
  resetEnv();
  app = createApp();
});

afterAll(async () => {
  mirror.close();
  delete process.env['DEBIAN_MIRROR'];
  await closeSubsetPool();
  await library.close();
});

describe('a family from a Debian package', () => {
  test('is skipped with the failed-family line while the mirror cannot be reached, and nothing of it is kept', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    process.env['DEBIAN_MIRROR'] = `http://127.0.0.1:${port}/debian`;
    resetEnv();
    const warned: string[] = [];
    const warn = vi.spyOn(log(), 'warn').mockImplementation(((message: unknown) => {
      warned.push(String(message));
    }) as never);
    try {
      const result = await inBackground().done;
      expect(result.seeded).toEqual([]);
      expect(result.failed.map((failure) => failure.gno)).toEqual([entry.gno]);
      expect(result.failed[0]?.error).toContain(`127.0.0.1:${port} cannot be reached`);
      // The npm registry is not taken for unreachable: its families would still be tried.
      expect(result.unreachable).toBeUndefined();
      expect(warned.join('\n')).toContain(`could not be seeded and are tried again on the next start (${entry.gno})`);
    } finally {
      warn.mockRestore();
    }
    expect(await library.db.select().from(fontFamilies).where(eq(fontFamilies.gno, entry.gno))).toEqual([]);
    expect(
      fs.existsSync(path.join(library.dataDir, 'cache/npm', `debian+${path.posix.basename(source.filename)}`)),
    ).toBe(false);
  }, 60_000);

  test('is seeded on the next run from the mirror, counted under 仿宋 and found by its names', async () => {
    await new Promise<void>((resolve) => mirror.listen(0, '127.0.0.1', resolve));
    process.env['DEBIAN_MIRROR'] = `http://127.0.0.1:${(mirror.address() as net.AddressInfo).port}/debian/`;
    resetEnv();
    const result = await inBackground().done;
    expect(result.failed).toEqual([]);
    expect(result.seeded).toEqual([entry.gno]);
    expect(requested).toEqual([`/debian/${source.filename}`]);
    expect(result.downloadedBytes).toBe(source.size);

    const [family] = await library.db.select().from(fontFamilies).where(eq(fontFamilies.gno, entry.gno));
    expect(family).toMatchObject({
      nameZh: 'cwTeX 仿宋',
      category: '5',
      script: '2',
      license: 'GPL-2.0-or-later-font-exception',
      commercialFree: true,
      sourcePackage: 'debian/fonts-cwtex-fs',
      sourceVersion: '1.0-4',
    });
    // The package's copyright file, with the font exception, is the family's licence text.
    expect(family?.licenseText).toContain('As a special exception, permission is granted to include these font');

    const faces = await library.db
      .select()
      .from(fonts)
      .where(eq(fonts.familyId, family?.id ?? -1));
    expect(faces).toHaveLength(1);
    const keys = await storage().list(`fonts/${entry.gno}`);
    expect(keys).toHaveLength(1);
    const stored = await storage().get(keys[0] ?? '');
    const bytes = Buffer.concat(await (stored?.body.toArray() ?? []));
    expect(bytes.length).toBeGreaterThan(9_000_000);
    expect(passesOts(bytes)).toBe(true);

    const { data } = await call<FontDictionary>(app, '/web/api/dict/font-default');
    expect(data['category']?.find((item) => item.label === '仿宋')?.count).toBe(1);
    expect(await listed('&category=5')).toEqual([entry.gno]);
    for (const name of ['仿宋', 'fangsong', 'cwTeX', '吳聰敏']) expect(await found(name)).toContain(entry.gno);

    // A second run finds it seeded and fetches nothing.
    expect((await inBackground().done).skipped).toEqual([entry.gno]);
    expect(requested).toHaveLength(1);
  }, 120_000);
});
