import fs from 'node:fs';
import { eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../src/server/app.ts';
import { fontFamilies, fontGroupFonts, fontGroups, fonts } from '../../src/server/db/schema/index.ts';
import type { FontResource, Page } from '../../src/server/fonts/catalogue.ts';
import type { FontDetail } from '../../src/server/fonts/detail.ts';
import type { FontDictionary } from '../../src/server/fonts/dictionary.ts';
import type { GlyphPage } from '../../src/server/fonts/glyphs.ts';
import { closeSubsetPool } from '../../src/server/webfont/subset.ts';
import { familyValues, fontValues } from '../helpers/database.ts';
import { call, type LibraryFixture, openFixtureLibrary } from '../helpers/font-library.ts';
import { cmapByFontTools } from '../helpers/font-oracle.ts';

let library: LibraryFixture;
let app: Hono;

const gnos = (page: Page<FontResource>) => page.records.map((record) => record.fontGNo);
const list = (query: string) => call<Page<FontResource>>(app, `/web/api/fontOverride/getFontList${query}`);

beforeAll(async () => {
  library = await openFixtureLibrary('library');
  // A fourth family whose pinyin name sorts first, added last, unlicensed for commerce and popular.
  const [extra] = await library.db
    .insert(fontFamilies)
    .values({
      ...familyValues('zz-test-song'),
      nameZh: '阿里测试宋体',
      category: '2',
      license: 'personal',
      commercialFree: false,
      downloads: 7,
      createdAt: new Date('2030-01-01T00:00:00Z'),
    })
    .returning();
  if (!extra) throw new Error('no family');
  await library.db.insert(fonts).values(fontValues(extra.id, 'zz-test-song-400'));
  await library.db.update(fontFamilies).set({ downloads: 3 }).where(eq(fontFamilies.gno, 'zcool-kuaile'));
  const [noto] = await library.db.select().from(fontFamilies).where(eq(fontFamilies.gno, 'noto-sans-sc'));
  const [shown, hidden] = await library.db
    .insert(fontGroups)
    .values([
      { kind: 'album', title: '开源黑体精选', status: 'published', publishedAt: new Date() },
      { kind: 'album', title: '草稿专辑', status: 'draft' },
    ])
    .returning();
  if (!noto || !shown || !hidden) throw new Error('no seed rows');
  await library.db.insert(fontGroupFonts).values([
    { kind: 'album', groupId: shown.id, familyId: noto.id },
    { kind: 'album', groupId: hidden.id, familyId: noto.id },
  ]);
  app = createApp();
});

afterAll(async () => {
  await closeSubsetPool();
  await library.close();
});

describe('GET /web/api/fontOverride/getFontList filters', () => {
  test.each([
    ['?weights=multi', ['noto-sans-sc']],
    ['?weights=single', ['ma-shan-zheng', 'zcool-kuaile', 'zz-test-song']],
    ['?commercialFree=true', ['ma-shan-zheng', 'noto-sans-sc', 'zcool-kuaile']],
    ['?commercialFree=false', ['zz-test-song']],
    ['?license=personal', ['zz-test-song']],
    ['?keyword=黑体', ['noto-sans-sc']],
    ['?keyword=宋体', ['zz-test-song']],
    ['?keyword=思源%20黑', ['noto-sans-sc']],
    ['?keyword=思源%20宋', []],
    ['?keyword=书法', ['ma-shan-zheng']],
    ['?weights=&commercialFree=&sort=', ['ma-shan-zheng', 'noto-sans-sc', 'zcool-kuaile', 'zz-test-song']],
  ])('returns the matching families for %s', async (query, expected) => {
    const answer = await list(query);
    expect(answer.status).toBe(200);
    expect(gnos(answer.data).sort()).toEqual(expected);
    expect(answer.data.total).toBe(expected.length);
  });

  test.each([
    ['?weights=three', '字重数量（weights）'],
    ['?commercialFree=yes', '免费商用（commercialFree）'],
    ['?sort=random', '排序方式（sort）'],
  ])('answers 400 naming the field for %s', async (query, field) => {
    const answer = await list(query);
    expect(answer.status).toBe(400);
    expect(answer.message).toContain(field);
  });
});

describe('GET /web/api/fontOverride/getFontList sorting and paging', () => {
  test('sorts by downloads by default', async () => {
    expect(gnos((await list('')).data).slice(0, 2)).toEqual(['zz-test-song', 'zcool-kuaile']);
  });

  test('sorts the newest first', async () => {
    expect(gnos((await list('?sort=newest')).data)[0]).toBe('zz-test-song');
  });

  test('sorts Chinese names in pinyin order across pages', async () => {
    const first = await list('?sort=name&size=3');
    const second = await list('?sort=name&size=3&current=2');
    expect([...gnos(first.data), ...gnos(second.data)]).toEqual([
      'zz-test-song', // 阿 a
      'ma-shan-zheng', // 马 ma
      'noto-sans-sc', // 思 si
      'zcool-kuaile', // 站 zhan
    ]);
    expect(second.data).toMatchObject({ total: 4, pages: 2, current: 2 });
  });

  test('answers an empty page past the end', async () => {
    const answer = await list('?sort=name&current=9&size=3');
    expect(answer.data.records).toEqual([]);
    expect(answer.data.total).toBe(4);
  });
});

describe('GET /web/api/dict/font-default', () => {
  test('groups the dictionary by key with text dict numbers, labels and counts', async () => {
    const { data } = await call<FontDictionary>(app, '/web/api/dict/font-default');
    expect(Object.keys(data).sort()).toEqual(['category', 'commercialFree', 'license', 'script', 'weights']);
    expect(data['category']?.[0]).toEqual({ dictNumber: '1', label: '黑体', dictName: '黑体', sort: 1, count: 1 });
    expect(data['category']?.find((e) => e.label === '宋体')?.count).toBe(1);
    expect(data['script']?.find((e) => e.label === '简体')?.count).toBe(4);
    expect(data['weights']).toEqual([
      expect.objectContaining({ dictNumber: 'multi', count: 1 }),
      expect.objectContaining({ dictNumber: 'single', count: 3 }),
    ]);
    expect(data['commercialFree']?.map((e) => [e.dictNumber, e.count])).toEqual([
      ['true', 3],
      ['false', 1],
    ]);
    for (const group of Object.values(data)) for (const entry of group) expect(typeof entry.dictNumber).toBe('string');
  });
});

describe('GET /web/api/font/getFontDetail', () => {
  test('returns the family with children, licence, coverage totals, albums and neighbours', async () => {
    const { status, data } = await call<FontDetail>(app, '/web/api/font/getFontDetail?gno=noto-sans-sc');
    expect(status).toBe(200);
    expect(data).toMatchObject({
      fontGNo: 'noto-sans-sc',
      familyName: '思源黑体（简体）',
      license: 'OFL-1.1',
      foundry: 'Adobe · Google',
      coverageTotals: { gb2312: 6763, tongyong: 3500, big5: 13053, latin: 95 },
      totalSize: 143096 + 95704,
    });
    expect(data.licenseText).toContain('SIL OPEN FONT LICENSE');
    expect(data.description.length).toBeGreaterThan(10);
    expect(data.childFontResource.map((c) => [c.fontGNo, c.fileSize])).toEqual([
      ['noto-sans-sc-400', 143096],
      ['noto-sans-sc-700', 95704],
    ]);
    expect(data.childFontResource[0]?.glyphCount).toBeGreaterThan(0);
    expect(data.albums.map((a) => a.title)).toEqual(['开源黑体精选']);
    // Library order: zz-test-song (7), zcool-kuaile (3), then 黑体 before 书法.
    expect(data.previous?.fontGNo).toBe('zcool-kuaile');
    expect(data.next?.fontGNo).toBe('ma-shan-zheng');
  });

  test('finds the family of a child font gno', async () => {
    const { data } = await call<FontDetail>(app, '/web/api/font/getFontDetail?gno=noto-sans-sc-700');
    expect(data.fontGNo).toBe('noto-sans-sc');
  });

  test('answers 404 for an unknown or unpublished family', async () => {
    await library.db.update(fontFamilies).set({ published: false }).where(eq(fontFamilies.gno, 'zz-test-song'));
    try {
      expect((await call(app, '/web/api/font/getFontDetail?gno=zz-test-song')).status).toBe(404);
      expect((await call(app, '/web/api/font/getFontDetail?gno=nope')).status).toBe(404);
    } finally {
      await library.db.update(fontFamilies).set({ published: true }).where(eq(fontFamilies.gno, 'zz-test-song'));
    }
  });
});

describe('GET /web/api/font/glyphs', () => {
  const cmap = cmapByFontTools(
    new Uint8Array(fs.readFileSync('tests/fixtures/fonts/noto-sans-sc/NotoSansSC_400Regular.ttf')),
  )
    .filter((cp) => cp >= 0x20 && !(cp >= 0x7f && cp < 0xa0))
    .sort((a, b) => a - b);

  test('pages through exactly the code points of the font’s cmap', async () => {
    const size = 50;
    const first = await call<GlyphPage>(app, `/web/api/font/glyphs?gno=noto-sans-sc&size=${size}`);
    expect(first.data).toMatchObject({ fontGNo: 'noto-sans-sc-400', total: cmap.length, current: 1 });
    const seen: number[] = [];
    for (let current = 1; current <= first.data.pages; current++) {
      const page = await call<GlyphPage>(app, `/web/api/font/glyphs?gno=noto-sans-sc&size=${size}&current=${current}`);
      seen.push(...page.data.records.map((g) => g.codePoint));
    }
    expect(seen).toEqual(cmap);
    expect(first.data.records[0]).toEqual({ codePoint: 0x20, char: ' ', unicode: 'U+0020' });
  });

  test('lists only one coverage set when asked', async () => {
    const { data } = await call<GlyphPage>(app, '/web/api/font/glyphs?gno=noto-sans-sc-700&set=latin&size=500');
    expect(data.fontGNo).toBe('noto-sans-sc-700');
    expect(data.records.every((g) => g.codePoint >= 0x20 && g.codePoint <= 0x7e)).toBe(true);
    expect(data.total).toBe(data.records.length);
  });

  test.each([
    ['?gno=noto-sans-sc&size=501', 400],
    ['?gno=noto-sans-sc&current=0', 400],
    ['?gno=noto-sans-sc&set=emoji', 400],
    ['?gno=missing', 404],
  ])('answers %s with %i', async (query, status) => {
    expect((await call(app, `/web/api/font/glyphs${query}`)).status).toBe(status);
  });
});
