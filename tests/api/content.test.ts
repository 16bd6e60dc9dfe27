import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { createApp } from '../../src/server/app.ts';
import { type ContentSuite, openContentSuite } from '../helpers/content.ts';
import { expectRangeAnswers } from '../helpers/range-requests.ts';

let suite: ContentSuite;
let app: ReturnType<typeof createApp>;

// Answers are read field by field in each test; their shapes are the services' types.
// biome-ignore lint/suspicious/noExplicitAny: see above.
type Loose = any;

interface Body<T = Loose> {
  code: string;
  message: string;
  data: T;
}

async function get<T = Loose>(path: string): Promise<{ status: number; body: Body<T> }> {
  const res = await app.request(`/web/api${path}`);
  return { status: res.status, body: (await res.json()) as Body<T> };
}

beforeAll(async () => {
  suite = await openContentSuite();
  app = createApp();
});
afterAll(async () => suite.close());

describe('GET /web/api/web-wenzhang/selectPage', () => {
  test('returns news newest first in the page shape', async () => {
    const { status, body } = await get('/web-wenzhang/selectPage');
    expect(status).toBe(200);
    expect(body.code).toBe('200');
    expect(body.data).toMatchObject({ total: 3, size: 20, current: 1, pages: 1 });
    expect(body.data.records.map((r: { title: string }) => r.title)).toEqual([
      '专访：一位字体设计师的十年',
      '造字联盟年会在杭州举行',
      '思源黑体发布新版本',
    ]);
    expect(body.data.records[0]).toMatchObject({ kind: 'news', hasVideo: true });
    expect(body.data.records[0].cover).toMatch(/^\/files\/covers\/news\/video-interview-[0-9a-f]{12}\.webp$/);
    expect(body.data.records[0].thumb).toMatch(/-thumb\.webp$/);
  });

  test('returns consulting articles with type=zixun', async () => {
    const { body } = await get('/web-wenzhang/selectPage?type=zixun');
    expect(body.data.total).toBe(1);
    expect(body.data.records[0].title).toBe('如何为品牌挑选字体');
  });

  test('reads a news category as its tag and filters by it', async () => {
    const all = await get('/web-wenzhang/selectPage');
    const meeting = all.body.data.records.find((r: { title: string }) => r.title === '造字联盟年会在杭州举行');
    expect(meeting.tagName).toBe('联盟动态');
    const { body } = await get(`/web-wenzhang/selectPage?tagId=${meeting.tagId}`);
    expect(body.data.records.map((r: { id: number }) => r.id)).toEqual([meeting.id]);
  });

  test('pages through with current and size', async () => {
    const { body } = await get('/web-wenzhang/selectPage?current=2&size=1');
    expect(body.data).toMatchObject({ total: 3, size: 1, current: 2, pages: 3 });
    expect(body.data.records.map((r: { title: string }) => r.title)).toEqual(['造字联盟年会在杭州举行']);
  });

  test('returns an empty page past the end', async () => {
    const { body } = await get('/web-wenzhang/selectPage?current=9&size=2');
    expect(body.data).toMatchObject({ records: [], total: 3, current: 9, pages: 2 });
  });

  test.each([
    ['size=101', '每页条数（size）'],
    ['size=0', '每页条数（size）'],
    ['current=0', '页码（current）'],
    ['current=abc', '页码（current）'],
    ['type=baike', '文章类型（type）'],
  ])('answers 400 naming the field when %s', async (query, label) => {
    const { status, body } = await get(`/web-wenzhang/selectPage?${query}`);
    expect(status).toBe(400);
    expect(body.code).toBe('400');
    expect(body.message).toContain(label);
  });
});

describe('GET /web/api/web-wenzhang/getDetailById', () => {
  test('returns the article with a sanitized body and its neighbours', async () => {
    const list = await get('/web-wenzhang/selectPage');
    const middle = list.body.data.records[1];
    const { status, body } = await get(`/web-wenzhang/getDetailById?id=${middle.id}`);
    expect(status).toBe(200);
    expect(body.data.title).toBe('造字联盟年会在杭州举行');
    expect(body.data.previous.title).toBe('专访：一位字体设计师的十年');
    expect(body.data.next.title).toBe('思源黑体发布新版本');
    expect(body.data.related).toHaveLength(2);
    const first = await get(`/web-wenzhang/getDetailById?id=${list.body.data.records[2].id}`);
    expect(first.body.data.bodyHtml).not.toContain('<script');
    expect(first.body.data.next).toBeNull();
  });

  test('answers 404 for an encyclopedia entry and 400 for a malformed id', async () => {
    const baike = await get('/shufa-baike/selectPage');
    const notNews = await get(`/web-wenzhang/getDetailById?id=${baike.body.data.records[0].id}`);
    expect(notNews.status).toBe(404);
    expect(notNews.body.message).toBe('文章不存在或已下架');
    const malformed = await get('/web-wenzhang/getDetailById?id=abc');
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toContain('文章编号（id）');
  });
});

describe('GET /web/api/shufa-baike', () => {
  test('lists titles of one tag and of all tags in tag order', async () => {
    const all = await get<Array<{ id: number; title: string; tagId: number; tagName: string }>>(
      '/shufa-baike/getCalligraphyTitleByTageId',
    );
    expect(all.body.data.map((t) => t.tagName)).toEqual(['楷书', '行书', '书法家']);
    const xingshu = all.body.data.find((t) => t.tagName === '行书');
    const one = await get(`/shufa-baike/getCalligraphyTitleByTageId?tagId=${xingshu?.tagId}`);
    expect(one.body.data).toEqual([{ id: xingshu?.id, title: '兰亭序', tagId: xingshu?.tagId, tagName: '行书' }]);
  });

  test('filters the page by tag and strips svg and style from the entry', async () => {
    const titles = await get<Array<{ id: number; tagId: number; tagName: string }>>(
      '/shufa-baike/getCalligraphyTitleByTageId',
    );
    const tagId = titles.body.data.find((t) => t.tagName === '行书')?.tagId;
    const page = await get(`/shufa-baike/selectPage?tagId=${tagId}`);
    expect(page.body.data.total).toBe(1);
    const { body } = await get(`/shufa-baike/getDetailById?id=${page.body.data.records[0].id}`);
    expect(body.data.tagName).toBe('行书');
    expect(body.data.bodyHtml).toContain('王羲之');
    expect(body.data.bodyHtml).not.toMatch(/<svg|onload|style=|url\(/);
  });
});

describe('GET /web/api/web-font-collection', () => {
  test('lists albums by default and collections with type=heji', async () => {
    const albums = await get('/web-font-collection/selectPage');
    expect(albums.body.data.records.map((r: { title: string }) => r.title)).toEqual(['手写毛笔专辑', '开源黑体专辑']);
    const heji = await get('/web-font-collection/selectPage?type=heji');
    expect(heji.body.data.records).toHaveLength(1);
    expect(heji.body.data.records[0]).toMatchObject({ type: 'heji', fontCount: 2 });
  });

  test('returns an album with its families as font resource items', async () => {
    const albums = await get('/web-font-collection/selectPage');
    const open = albums.body.data.records.find((r: { title: string }) => r.title === '开源黑体专辑');
    const { body } = await get(`/web-font-collection/getDetailById?id=${open.id}`);
    expect(body.data.fonts.map((f: { fontGNo: string }) => f.fontGNo)).toEqual(['noto-sans-sc', 'zcool-kuaile']);
    expect(body.data.fonts[0].childFontResource.length).toBeGreaterThan(0);
    expect(body.data.descriptionHtml).toContain('免费商用');
    const missing = await get('/web-font-collection/getDetailById?id=999');
    expect(missing.status).toBe(404);
  });

  test('hands out a signed link that streams a zip of default weights and licences', async () => {
    const albums = await get('/web-font-collection/selectPage');
    const open = albums.body.data.records.find((r: { title: string }) => r.title === '开源黑体专辑');
    const link = await get(`/web-font-collection/download-font-zip-url?id=${open.id}`);
    expect(link.status).toBe(200);
    expect(link.body.data.url).toMatch(/^\/web\/api\/web-font-collection\/download-font-zip\?/);
    const res = await app.request(link.body.data.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('application/zip');
    const zip = Buffer.from(await res.arrayBuffer());
    expect(zip.subarray(0, 2).toString()).toBe('PK');
    // Sized ahead and resumable: the browser shows progress and picks up a broken-off download.
    expect(res.headers.get('Content-Length')).toBe(String(zip.byteLength));
    await expectRangeAnswers(app, link.body.data.url, new Uint8Array(zip));
    const names = zip.toString('latin1');
    expect(names).toContain('noto-sans-sc/NotoSansSC_400Regular.ttf');
    expect(names).not.toContain('NotoSansSC_700Bold.ttf');
    expect(names).toContain('noto-sans-sc/OFL.txt');
    expect(names).toContain('zcool-kuaile/ZCOOLKuaiLe_400Regular.ttf');
    expect(names).toContain('README.txt');
  });

  test('refuses a tampered or expired zip link with 403', async () => {
    const albums = await get('/web-font-collection/selectPage');
    const id = albums.body.data.records[0].id;
    const link = await get(`/web-font-collection/download-font-zip-url?id=${id}`);
    const url = new URL(link.body.data.url, 'http://x');
    url.searchParams.set('id', String(id + 1));
    const tampered = await app.request(url.pathname + url.search);
    expect(tampered.status).toBe(403);
    const later = Date.now() + 3_600_000;
    const clock = vi.spyOn(Date, 'now').mockReturnValue(later);
    let expired: Response;
    try {
      expired = await app.request(link.body.data.url);
    } finally {
      clock.mockRestore();
    }
    expect(expired.status).toBe(403);
    expect(((await expired.json()) as Body).message).toContain('已过期');
  });
});

describe('GET /web/api site content', () => {
  test('lists cases with the family they used', async () => {
    const { body } = await get('/web-font-case/selectPage');
    expect(body.data.records[0]).toMatchObject({
      title: '茶饮品牌的手写招牌',
      client: '某茶饮品牌',
      font: { fontGNo: 'ma-shan-zheng', webFontFamily: 'fa-ma-shan-zheng' },
    });
  });

  test('lists running promotions and shows one', async () => {
    const page = await get('/web-promotion/selectPage');
    expect(page.body.data.total).toBe(1);
    const detail = await get(`/web-promotion/getDetail?id=${page.body.data.records[0].id}`);
    expect(detail.body.data.bodyHtml).toContain('<strong>全部</strong>');
    expect((await get('/web-promotion/getDetail?id=12345')).status).toBe(404);
  });

  test('returns columns by type, ads, and the contribution template', async () => {
    const footer = await get('/web-column/getColumnByType?type=footer');
    expect(footer.body.data.map((c: { name: string }) => c.name)).toEqual(['关于我们', '联系我们']);
    expect((await get('/web-column/getColumnByType')).status).toBe(400);
    const ads = await get('/fontOverride/adv/getData?position=home-banner');
    expect(ads.body.data[0]).toMatchObject({ title: '开源中文字体，一站下载', linkUrl: '/font' });
    expect(ads.body.data[0].image).toMatch(/^\/files\/covers\/ad\//);
    const template = await get('/contributeTemplate/queryByType?type=agreement');
    expect(template.body.data.contentHtml).toContain('<strong>全部权利</strong>');
  });

  test('returns the home data sections', async () => {
    const { body } = await get('/fontOverride/home/getData');
    expect(body.data.banners).toHaveLength(1);
    expect(body.data.news).toHaveLength(3);
    expect(body.data.baike.length).toBeGreaterThan(0);
    expect(body.data.fonts.length).toBe(3);
    expect(body.data.albums).toHaveLength(2);
    expect(body.data.collections).toHaveLength(1);
    expect(body.data.cases).toHaveLength(1);
    expect(body.data.promotions).toHaveLength(1);
    expect(body.data.baikeTags.map((t: { name: string }) => t.name)).toEqual(['楷书', '行书', '书法家']);
  });
});

describe('GET /web/api/keyword/getKeyword', () => {
  test('suggests the heaviest keywords without input', async () => {
    const { body } = await get('/keyword/getKeyword');
    expect(body.data.map((k: { word: string }) => k.word)).toEqual(['思源黑体', '书法', '楷书']);
  });

  test('suggests keywords by prefix, then indexed words', async () => {
    const { body } = await get(`/keyword/getKeyword?keyword=${encodeURIComponent('思')}`);
    expect(body.data[0].word).toBe('思源黑体');
    const words = await get(`/keyword/getKeyword?keyword=${encodeURIComponent('兰')}`);
    expect(words.body.data.map((k: { word: string }) => k.word)).toContain('兰亭序');
  });
});

describe('GET /web/api/web-findAll/getByParameter', () => {
  test('ranks the entry titled with the query first and highlights it', async () => {
    const { body } = await get(`/web-findAll/getByParameter?keyword=${encodeURIComponent('兰亭序')}`);
    expect(body.data.records[0]).toMatchObject({ type: 'baike', title: '兰亭序', titleHtml: '<mark>兰亭序</mark>' });
    expect(body.data.records[0].url).toMatch(/^\/baike\/\d+$/);
    // The entry on 王羲之 mentions 兰亭序 in its body: found, ranked below.
    const titles = body.data.records.map((r: { title: string }) => r.title);
    expect(titles).toContain('王羲之');
    const other = body.data.records.find((r: { title: string }) => r.title === '王羲之');
    expect(other.snippetHtml).toContain('<mark>兰亭序</mark>');
  });

  test('finds words inside longer Chinese text through segmentation', async () => {
    const { body } = await get(`/web-findAll/getByParameter?keyword=${encodeURIComponent('书法家的行书')}`);
    const titles = body.data.records.map((r: { title: string }) => r.title);
    expect(titles.slice(0, 2).sort()).toEqual(['兰亭序', '王羲之'].sort());
  });

  test('searches fonts with type=font', async () => {
    const { body } = await get(`/web-findAll/getByParameter?keyword=${encodeURIComponent('黑体')}&type=font`);
    expect(body.data.records.map((r: { id: string }) => r.id)).toEqual(['noto-sans-sc']);
    expect(body.data.records[0].url).toBe('/font/noto-sans-sc');
  });

  test('escapes everything but <mark> in snippets', async () => {
    const { body } = await get(`/web-findAll/getByParameter?keyword=${encodeURIComponent('思源黑体')}`);
    for (const record of body.data.records) {
      expect(record.snippetHtml.replace(/<\/?mark>/g, '')).not.toMatch(/[<>]/);
    }
  });

  test('answers 400 without a keyword', async () => {
    const { status, body } = await get('/web-findAll/getByParameter?keyword=');
    expect(status).toBe(400);
    expect(body.message).toContain('请输入要搜索的内容');
  });
});

describe('GET /web/api/marketing-dict/dict-number', () => {
  test('counts the library and the community from the database, and follows a download', async () => {
    const before = (await get('/marketing-dict/dict-number')).body;
    expect(before.code).toBe('200');
    // The fixture library: three families, their faces, and the fixture articles.
    expect(before.data).toMatchObject({ fontFamilies: 3, members: 0 });
    expect(before.data.fontFaces).toBeGreaterThanOrEqual(3);
    expect(before.data.articles).toBeGreaterThan(0);
    const { database } = suite;
    const { fontFamilies } = await import('../../src/server/db/schema/index.ts');
    await database.db.update(fontFamilies).set({ downloads: 41 });
    // Answered from the cache until a download happens.
    expect((await get('/marketing-dict/dict-number')).body.data.downloads).toBe(before.data.downloads);
    const link = (await get('/font/get-download-url?gno=noto-sans-sc-400')).body.data.url as string;
    const download = await app.request(link);
    expect(download.status).toBe(200);
    await download.arrayBuffer();
    const after = (await get('/marketing-dict/dict-number')).body;
    expect(after.data.downloads).toBe(41 * 3 + 1);
  });
});
