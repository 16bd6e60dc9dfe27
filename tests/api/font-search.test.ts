// Search finds a font by any name people use for it: Chinese, English, pinyin and its initials, the
// names designers give its style, its foundry; fonts come before articles, each with its preview.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../src/server/app.ts';
import { refreshSearchIndex } from '../../src/server/content/search.ts';
import { fontFamilies } from '../../src/server/db/schema/index.ts';
import { FONT_CATALOGUE } from '../../src/server/db/seed/font-catalogue.ts';
import { categoryNumber, scriptNumber } from '../../src/server/db/seed/font-dicts.ts';
import { type ContentSuite, openContentSuite } from '../helpers/content.ts';

let suite: ContentSuite;
let app: ReturnType<typeof createApp>;

interface Result {
  type: string;
  id: string | number;
  title: string;
  preview: string | null;
}

async function search(keyword: string, type = ''): Promise<Result[]> {
  const query = new URLSearchParams({ keyword, size: '100', ...(type ? { type } : {}) });
  const res = await app.request(`/web/api/web-findAll/getByParameter?${query}`);
  const body = (await res.json()) as { data: { records: Result[] } };
  return body.data.records;
}
const fontIds = async (keyword: string) => (await search(keyword, 'font')).map((result) => String(result.id));
const catalogue = (test: (entry: (typeof FONT_CATALOGUE)[number]) => boolean) =>
  FONT_CATALOGUE.filter(test).map((entry) => entry.gno);

beforeAll(async () => {
  suite = await openContentSuite();
  // The whole catalogue's family rows (search reads rows only; the fixtures already have three).
  const present = new Set(
    (await suite.database.db.select({ gno: fontFamilies.gno }).from(fontFamilies)).map((r) => r.gno),
  );
  for (const entry of FONT_CATALOGUE.filter((candidate) => !present.has(candidate.gno))) {
    await suite.database.db.insert(fontFamilies).values({
      gno: entry.gno,
      nameZh: entry.nameZh,
      nameEn: entry.aliases?.find((alias) => /^[A-Za-z]/.test(alias)) ?? entry.gno,
      category: categoryNumber(entry.category),
      script: scriptNumber(entry.script),
      license: entry.license,
      licenseText: 'OFL',
      foundry: entry.foundry,
      description: entry.description,
    });
  }
  await refreshSearchIndex();
  app = createApp();
}, 60_000);
afterAll(async () => suite.close());

describe('finding a font by the names people use', () => {
  test('pinyin and its initials find 思源 and 霞鹜文楷', async () => {
    const siyuan = catalogue((entry) => entry.nameZh.startsWith('思源'));
    expect((await fontIds('siyuan')).slice(0, siyuan.length).sort()).toEqual(siyuan.sort());
    const syht = await fontIds('syht');
    expect(syht.slice(0, 4).sort()).toEqual(['noto-sans-hk', 'noto-sans-jp', 'noto-sans-sc', 'noto-sans-tc']);
    expect((await fontIds('wenkai'))[0]).toMatch(/^lxgw-wenkai/);
    expect(await fontIds('xwwk')).toContain('lxgw-wenkai');
  });

  test('the names of a style find every family of it: 宋体/明朝/Song/Serif/songti, 黑体/Gothic/Sans, 楷/Kai', async () => {
    const song = catalogue((entry) => entry.category === '宋体');
    for (const word of ['宋体', '明朝', 'Song', 'serif', 'songti']) {
      expect((await fontIds(word)).slice(0, song.length).sort(), word).toEqual([...song].sort());
    }
    const hei = catalogue((entry) => entry.category === '黑体');
    for (const word of ['黑体', 'Gothic', 'sans']) {
      expect(await fontIds(word), word).toEqual(expect.arrayContaining(hei));
    }
    const kai = catalogue((entry) => entry.category === '楷体');
    for (const word of ['楷', 'Kai', '楷体']) expect(await fontIds(word), word).toEqual(expect.arrayContaining(kai));
  });

  test('日文 and 和文 find every Japanese family', async () => {
    const japanese = catalogue((entry) => entry.script === '日文');
    expect(japanese.length).toBeGreaterThan(20);
    for (const word of ['日文', '和文']) {
      expect((await fontIds(word)).slice(0, japanese.length).sort(), word).toEqual([...japanese].sort());
    }
  });

  test('a foundry finds its families', async () => {
    for (const [word, own] of [
      ['站酷', catalogue((entry) => entry.foundry.includes('站酷'))],
      ['Fontworks', catalogue((entry) => entry.foundry === 'Fontworks')],
      ['落霞与孤鹜', catalogue((entry) => entry.foundry.includes('LXGW'))],
    ] as const) {
      expect((await fontIds(word)).slice(0, own.length).sort(), word).toEqual([...own].sort());
    }
  });

  test('fonts come before articles, each with its name to draw in the font', async () => {
    const results = await search('思源黑体');
    const news = results.findIndex((result) => result.type === 'news');
    expect(news).toBeGreaterThan(0);
    // Every 思源黑体 comes before the news about it; fonts that are merely 黑体 may follow.
    const named = results.flatMap((result, i) => (result.preview?.startsWith('思源黑体') ? [i] : []));
    expect(named).toHaveLength(catalogue((entry) => entry.nameZh.startsWith('思源黑体')).length);
    expect(Math.max(...named)).toBeLessThan(news);
    const first = results[0];
    expect(first?.type).toBe('font');
    expect(first?.preview).toMatch(/^思源黑体/);
    expect(results.find((result) => result.id === 'noto-sans-sc')?.preview).toBe('思源黑体（简体）');
    expect(results.find((result) => result.type === 'news')?.preview).toBeNull();
  });
});
