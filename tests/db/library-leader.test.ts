import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Database, openDatabase, useDatabase } from '../../src/server/db/client.ts';
import { fontFamilies } from '../../src/server/db/schema/index.ts';
import { seedLibraryInBackground } from '../../src/server/db/seed/background.ts';
import type { CatalogueEntry } from '../../src/server/db/seed/font-catalogue.ts';
import { resetEnv } from '../../src/server/env.ts';
import { openTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { entryFor, FakeRegistry, fixtureFont, license, pack } from '../helpers/fake-registry.ts';

// Every node of a site starts the library's background seeding; one of them does it, holding a site
// lock, while the others watch and show what it adds. Two "nodes" here are two database handles
// (two connection pools on PostgreSQL) over one database and one registry.

const registry = new FakeRegistry();
const contentDir = fs.mkdtempSync(path.join(os.tmpdir(), 'font-alliance-leader-content-'));
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'font-alliance-leader-'));
const savedEnv = { ...process.env };
let first: TestDatabase;
let second: Database | undefined;
let families: CatalogueEntry[];

beforeAll(async () => {
  process.env['DATA_DIR'] = dataDir;
  process.env['FONT_SEED'] = 'registry';
  process.env['LOG_LEVEL'] = 'silent';
  process.env['NPM_REGISTRY'] = await registry.listen();
  resetEnv();
  first = await openTestDatabase();
  // PGlite belongs to one process: there both "nodes" share its handle and its in-process locks.
  second = first.kind === 'postgres' ? await openDatabase(first.target.options) : undefined;
  useDatabase(first);
  const sources: Array<[string, string, string]> = [
    ['river-kai', '江河楷书', 'ma-shan-zheng/MaShanZheng_400Regular.ttf'],
    ['cloud-yuan', '云朵圆体', 'zcool-kuaile/ZCOOLKuaiLe_400Regular.ttf'],
    ['stone-hei', '石刻黑体', 'noto-sans-sc/NotoSansSC_400Regular.ttf'],
  ];
  families = [];
  for (const [gno, name, file] of sources) {
    const bytes = await pack({ [`400Regular/${path.basename(file)}`]: fixtureFont(file), LICENSE_FONT: license });
    registry.packages.set(gno, bytes);
    families.push(entryFor(gno, name, bytes));
  }
}, 120_000);

afterAll(async () => {
  registry.server.close();
  await second?.close();
  await first?.close();
  process.env = savedEnv;
  resetEnv();
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(contentDir, { recursive: true, force: true });
});

describe('the library seeded by several nodes at once', () => {
  test('one node seeds it, every package is fetched once, and the other node sees it complete', async () => {
    const other = second ?? first;
    registry.hold();
    const a = seedLibraryInBackground({ catalogue: families, library: families, contentDir, watchMs: 50 });
    const b = seedLibraryInBackground({
      catalogue: families,
      library: families,
      contentDir,
      watchMs: 50,
      db: other.db,
      locks: other.locks,
    });
    // Let both reach the registry if both were going to.
    await new Promise((resolve) => setTimeout(resolve, 500));
    registry.release();
    const [ra, rb] = await Promise.all([a.done, b.done]);
    expect(registry.requested.sort()).toEqual(families.map((entry) => entry.gno).sort());
    // One of the two seeded all three; the other seeded nothing.
    expect([ra.seeded.length, rb.seeded.length].sort()).toEqual([0, 3]);
    const rows = await first.db
      .select({ gno: fontFamilies.gno })
      .from(fontFamilies)
      .where(
        inArray(
          fontFamilies.gno,
          families.map((entry) => entry.gno),
        ),
      );
    expect(rows).toHaveLength(3);
  }, 120_000);
});
