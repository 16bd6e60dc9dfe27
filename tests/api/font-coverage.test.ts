import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FontCoverageAnswer } from '../../src/contract/fonts.ts';
import { createApp } from '../../src/server/app.ts';
import { contentChanged } from '../../src/server/content/changes.ts';
import { closeDatabase, db, useDatabase } from '../../src/server/db/client.ts';
import { fontFamilies, fonts } from '../../src/server/db/schema/index.ts';
import { seedFonts } from '../../src/server/db/seed/fonts.ts';
import { resetEnv } from '../../src/server/env.ts';
import { cmapKey } from '../../src/server/fonts/cmap-cache.ts';
import { CoverageIndex } from '../../src/server/fonts/coverage-index.ts';
import { storage } from '../../src/server/storage/index.ts';
import { closeSubsetPool } from '../../src/server/webfont/subset.ts';
import { readCmapCodePoints } from '../helpers/cmap.ts';
import { openTestDatabase } from '../helpers/database.ts';

const FIXTURES = path.resolve('tests/fixtures/fonts');
let dataDir: string;
let savedEnv: NodeJS.ProcessEnv;
let app: ReturnType<typeof createApp>;

/** Each fixture family's faces as sets of code points, read by the tests' own cmap reader. */
const familyFaces = () =>
  new Map(
    fs
      .readdirSync(FIXTURES, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => [
        entry.name,
        fs
          .readdirSync(path.join(FIXTURES, entry.name))
          .filter((file) => file.endsWith('.ttf'))
          .map((file) => readCmapCodePoints(new Uint8Array(fs.readFileSync(path.join(FIXTURES, entry.name, file))))),
      ]),
  );

async function ask(body: unknown) {
  const res = await app.request('/web/api/font/coverage', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    body: (await res.json()) as { code: string; message: string; data: FontCoverageAnswer },
  };
}

beforeAll(async () => {
  savedEnv = { ...process.env };
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'font-alliance-coverage-'));
  process.env['DATA_DIR'] = dataDir;
  process.env['LOG_LEVEL'] = 'silent';
  resetEnv();
  useDatabase(await openTestDatabase());
  expect((await seedFonts({ source: 'fixtures' })).failed).toEqual([]);
  // As on a library seeded before the seeding cached cmaps: the index reads them from the fonts.
  const database = await db();
  for (const font of await database.select({ sha256: fonts.sha256 }).from(fonts)) {
    await storage().delete(cmapKey(font.sha256));
  }
  app = createApp();
});
afterAll(async () => {
  await closeSubsetPool();
  await closeDatabase();
  process.env = savedEnv;
  resetEnv();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('POST /web/api/font/coverage', () => {
  test('answers every family with what its best face lacks, fewest lacking first', async () => {
    const faces = familyFaces();
    // A pasted text, plus characters one fixture has and another lacks, so that the figures differ.
    const only = (has: string, lacks: string, count: number) => {
      const [own] = faces.get(has) ?? [];
      const others = faces.get(lacks) ?? [];
      return [...(own ?? [])]
        .filter((cp) => cp > 0x3000 && others.every((cmap) => !cmap.has(cp)))
        .slice(0, count)
        .map((cp) => String.fromCodePoint(cp))
        .join('');
    };
    const text = `永和九年 岁在癸丑\n暮春之初。The quick fox ${only('noto-sans-sc', 'zcool-kuaile', 7)} 永和 ${only('zcool-kuaile', 'ma-shan-zheng', 3)}`;
    const { status, body } = await ask({ text });
    expect(status).toBe(200);
    const distinct = [...new Set([...text].filter((char) => !/\s/u.test(char)))];
    expect(body.data.checked).toBe(distinct.length);
    expect(body.data.families.map((family) => family.fontGNo).sort()).toEqual([...faces.keys()].sort());
    for (const family of body.data.families) {
      const best = (faces.get(family.fontGNo) ?? [])
        .map((cmap) => distinct.filter((char) => !cmap.has(char.codePointAt(0) ?? 0)))
        .sort((a, b) => a.length - b.length)[0];
      expect(family.lacks, family.fontGNo).toBe(best?.length);
      expect(family.missing, family.fontGNo).toBe(best?.slice(0, 20).join(''));
    }
    const lacks = body.data.families.map((family) => family.lacks);
    expect(lacks).toEqual([...lacks].sort((a, b) => a - b));
    expect(new Set(lacks).size).toBeGreaterThan(1);
  });

  test('names at most the first 20 lacking characters, in the order of the text', async () => {
    const cmap = familyFaces().get('zcool-kuaile')?.[0] ?? new Set<number>();
    const lacking = [];
    for (let cp = 0x4e00; lacking.length < 30; cp++) if (!cmap.has(cp)) lacking.push(String.fromCodePoint(cp));
    const { body } = await ask({ text: lacking.reverse().join('') });
    const kuaile = body.data.families.find((family) => family.fontGNo === 'zcool-kuaile');
    expect(kuaile).toEqual({ fontGNo: 'zcool-kuaile', lacks: 30, missing: lacking.slice(0, 20).join('') });
  });

  test('refuses no characters and more than 5,000 with a message saying so, and takes exactly 5,000', async () => {
    for (const text of ['', ' \n\t　', undefined]) {
      const { status, body } = await ask(text === undefined ? {} : { text });
      expect(status).toBe(400);
      expect(body.message).toBe('请输入要检查的字');
    }
    const many = (count: number) => Array.from({ length: count }, (_, i) => String.fromCodePoint(0x4e00 + i)).join('');
    const over = await ask({ text: many(5001) });
    expect(over.status).toBe(400);
    expect(over.body.message).toBe('一次最多检查 5000 个字');
    const limit = await ask({ text: many(5000) + many(5000) });
    expect(limit.status).toBe(200);
    expect(limit.body.data.checked).toBe(5000);
    const wrong = await ask({ text: 42 });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toContain('要检查的字');
  });

  test('leaves out a family taken off the library once the change is announced', async () => {
    await db().then((database) =>
      database.update(fontFamilies).set({ published: false }).where(eq(fontFamilies.gno, 'zcool-kuaile')),
    );
    await contentChanged('font');
    const { body } = await ask({ text: '永' });
    expect(body.data.families.map((family) => family.fontGNo)).not.toContain('zcool-kuaile');
    await db().then((database) =>
      database.update(fontFamilies).set({ published: true }).where(eq(fontFamilies.gno, 'zcool-kuaile')),
    );
    await contentChanged('font');
    expect((await ask({ text: '永' })).body.data.families).toHaveLength(3);
  });
});

describe('CoverageIndex', () => {
  test('agrees with asking every face in turn, past 32 faces and beyond the dense planes', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const universe = [
      ...Array.from({ length: 400 }, (_, i) => 0x4e00 + i),
      ...Array.from({ length: 40 }, (_, i) => 0x20000 + i),
      ...Array.from({ length: 40 }, (_, i) => 0x31350 + i),
    ];
    const faces = Array.from({ length: 70 }, (_, i) => ({
      family: `family-${i % 23}`,
      codePoints: universe.filter(() => random() < 0.8),
    }));
    const asked = universe.filter(() => random() < 0.5);
    const answer = CoverageIndex.of(faces).query(asked);
    expect(answer).toHaveLength(23);
    for (const family of answer) {
      const best = faces
        .filter((face) => face.family === family.family)
        .map((face) => asked.filter((cp) => !face.codePoints.includes(cp)))
        .sort((a, b) => a.length - b.length)[0];
      expect(family.lacks).toBe(best?.length);
      expect(family.missing).toEqual(best?.slice(0, 20));
    }
  });
});
