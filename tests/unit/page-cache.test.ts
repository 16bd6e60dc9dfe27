import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { getArticle, listArticles } from '../../src/server/content/articles.ts';
import { contentChanged } from '../../src/server/content/changes.ts';
import { saveArticle, setArticleStatus } from '../../src/server/content/editor/save.ts';
import {
  isFresh,
  pageCacheKey,
  REVALIDATE_MS,
  REVALIDATE_SPREAD_MS,
  servePageFromCache,
} from '../../src/server/isr/isr.ts';
import { MAX_VARIANTS_PER_PATH, PageCache, pageCache } from '../../src/server/isr/page-cache.ts';
import { type ContentSuite, openContentSuite } from '../helpers/content.ts';

let suite: ContentSuite;
let renders = 0;

/** Stands in for the Astro page: reads the article through the service and renders its title. */
async function renderNewsPage(id: number): Promise<Response> {
  renders++;
  const article = await getArticle(id, ['news']);
  if (!article) return new Response('not found', { status: 404, headers: { 'Content-Type': 'text/html' } });
  return new Response(`<!doctype html><h1>${article.title}</h1>`, {
    headers: { 'Content-Type': 'text/html; charset=utf-8' },
  });
}

async function visit(pathAndQuery: string, headers: Record<string, string> = {}, render?: () => Promise<Response>) {
  const url = new URL(pathAndQuery, 'http://localhost');
  const id = Number(url.pathname.split('/').pop());
  return servePageFromCache(url, new Request(url, { headers }), render ?? (() => renderNewsPage(id)));
}

let newsId: number;
/** Past the revalidation time of every page, whatever its key's share of the spread. */
const STALE_AFTER = REVALIDATE_MS + REVALIDATE_SPREAD_MS + 1000;

beforeAll(async () => {
  suite = await openContentSuite();
  const page = await listArticles({ kind: 'news', current: 1, size: 1 });
  newsId = page.records[0]?.id ?? 0;
});
afterAll(async () => suite.close());
beforeEach(async () => {
  renders = 0;
  await pageCache().purgeAll();
});

describe('pageCacheKey', () => {
  test.each([
    ['/news/12', '/news/12'],
    ['/news/12.html', '/news/12'],
    ['/baike?tag=3&current=2', '/baike?current=2&tag=3'],
    ['/', '/'],
    ['/sitemap.xml', '/sitemap.xml'],
    ['/font', '/font'],
    ['/font?sort=newest&category=2&current=3', '/font?category=2&current=3&sort=newest'],
    ['/font/noto-sans-sc', '/font/noto-sans-sc'],
    ['/font/noto-sans-sc.html?set=gb2312&gp=2', '/font/noto-sans-sc?gp=2&set=gb2312'],
  ])('caches %s under %s', (input, key) => {
    expect(pageCacheKey(new URL(input, 'http://x'))?.key).toBe(key);
  });

  test.each([
    '/user/profile',
    '/news/12?utm_source=x',
    '/font?utm_source=x',
    '/font/noto-sans-sc?layout=Grid',
    '/font/a/b',
    '/news/abc',
  ])('does not cache %s', (input) => {
    expect(pageCacheKey(new URL(input, 'http://x'))).toBeUndefined();
  });

  test('keeps font pages with free text (a keyword, a sample line) in memory only', () => {
    const key = (input: string) => pageCacheKey(new URL(input, 'http://x'));
    expect(key('/font')?.persist).toBe(true);
    expect(key('/font/noto-sans-sc')?.persist).toBe(true);
    expect(key('/font?keyword=黑体')?.persist).toBe(false);
    expect(key('/font/noto-sans-sc?text=永')?.persist).toBe(false);
    expect(key('/news?current=2')?.persist).toBe(true);
  });
});

describe('servePageFromCache', () => {
  test('renders once, then serves the cached copy with validators and compression', async () => {
    const first = await visit(`/news/${newsId}`);
    expect(first.headers.get('X-Page-Cache')).toBe('MISS');
    const second = await visit(`/news/${newsId}`, { 'Accept-Encoding': 'gzip, br' });
    expect(second.headers.get('X-Page-Cache')).toBe('HIT');
    expect(second.headers.get('Content-Encoding')).toBe('br');
    expect(second.headers.get('Cache-Control')).toContain('stale-while-revalidate');
    // A CDN in front purges it by the section it shows (docs/operations.md, "Running several nodes").
    expect(second.headers.get('Surrogate-Key')).toBe('news pages');
    expect(second.headers.get('Cache-Tag')).toBe('news,pages');
    expect(renders).toBe(1);
    const etag = second.headers.get('ETag') ?? '';
    expect(etag).toMatch(/^"[\w-]+"$/);
    const revalidated = await visit(`/news/${newsId}`, { 'If-None-Match': etag });
    expect(revalidated.status).toBe(304);
    expect(await (await visit(`/news/${newsId}`)).text()).toContain('<h1>专访：一位字体设计师的十年</h1>');
  });

  test('shows an edit made through the service on the very next visit', async () => {
    await visit(`/news/${newsId}`);
    await saveArticle(newsId, {
      kind: 'news',
      title: '专访：字体设计师的十年（修订）',
      summary: '从第一笔到第一款字库。',
      body: '修订后的正文。',
    });
    const after = await visit(`/news/${newsId}`);
    expect(await after.text()).toContain('专访：字体设计师的十年（修订）');
    expect(after.headers.get('X-Page-Cache')).toBe('MISS');
  });

  test('purges the list, home and sitemap with the detail, and leaves other sections cached', async () => {
    const simple = (body: string) => async () => new Response(body, { headers: { 'Content-Type': 'text/html' } });
    await visit('/news', {}, simple('list'));
    await visit('/news?current=2', {}, simple('list 2'));
    await visit('/', {}, simple('home'));
    await visit(
      '/sitemap.xml',
      {},
      async () => new Response('<urlset/>', { headers: { 'Content-Type': 'application/xml' } }),
    );
    await visit('/baike', {}, simple('baike'));
    await setArticleStatus(newsId, 'published');
    for (const target of ['/news', '/news?current=2', '/', '/sitemap.xml']) {
      expect((await visit(target, {}, simple('again'))).headers.get('X-Page-Cache')).toBe('MISS');
    }
    expect((await visit('/baike', {}, simple('again'))).headers.get('X-Page-Cache')).toBe('HIT');
  });

  test('a change to the cases also purges /dingzhi, which lists the latest cases', async () => {
    const simple = (body: string) => async () => new Response(body, { headers: { 'Content-Type': 'text/html' } });
    await visit('/dingzhi', {}, simple('service'));
    await visit('/tougao', {}, simple('submissions'));
    await contentChanged('case');
    expect((await visit('/dingzhi', {}, simple('again'))).headers.get('X-Page-Cache')).toBe('MISS');
    expect((await visit('/tougao', {}, simple('again'))).headers.get('X-Page-Cache')).toBe('HIT');
  });

  test('does not keep 404s, pages that set cookies, or a render overtaken by a purge', async () => {
    const notFound = await visit('/news/999999');
    expect(notFound.status).toBe(404);
    await visit('/news/999999');
    expect(renders).toBe(2);

    const withCookie = async () => new Response('x', { headers: { 'Content-Type': 'text/html', 'Set-Cookie': 'a=b' } });
    await visit('/zixun', {}, withCookie);
    expect((await visit('/zixun', {}, withCookie)).headers.get('X-Page-Cache')).toBeNull();

    let release: () => void = () => {};
    let rendering: () => void = () => {};
    const renderStarted = new Promise<void>((resolve) => {
      rendering = resolve;
    });
    const slow = async () => {
      rendering();
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return new Response('old', { headers: { 'Content-Type': 'text/html' } });
    };
    const pending = visit('/album', {}, slow);
    // The purge lands while the render is under way, not before it started.
    await renderStarted;
    await contentChanged('album');
    release();
    expect(await (await pending).text()).toBe('old');
    const fresh = await visit(
      '/album',
      {},
      async () => new Response('new', { headers: { 'Content-Type': 'text/html' } }),
    );
    expect(await fresh.text()).toBe('new');
  });

  test('never stores the empty answer of a HEAD request', async () => {
    const head = await servePageFromCache(
      new URL('/case', 'http://localhost'),
      new Request('http://localhost/case', { method: 'HEAD' }),
      async () => new Response(null, { headers: { 'Content-Type': 'text/html' } }),
    );
    expect(head.headers.get('X-Page-Cache')).toBeNull();
    const get = await visit(
      '/case',
      {},
      async () => new Response('cases', { headers: { 'Content-Type': 'text/html' } }),
    );
    expect(await get.text()).toBe('cases');
  });

  test('once a page is older than the revalidation time, answers at once with it and renders it again behind', async () => {
    await visit(`/news/${newsId}`);
    const now = Date.now();
    const clock = vi.spyOn(Date, 'now').mockReturnValue(now + STALE_AFTER);
    try {
      // The render is held until the stale answer is out: the reader does not wait for it.
      let finish = () => {};
      const held = new Promise<void>((resolve) => {
        finish = resolve;
      });
      let rendered: Promise<Response> | undefined;
      const stale = await visit(`/news/${newsId}`, {}, () => {
        rendered = held.then(() => renderNewsPage(newsId));
        return rendered;
      });
      expect(stale.headers.get('X-Page-Cache')).toBe('STALE');
      expect(renders).toBe(1);
      finish();
      await rendered;
      // Stored once the render is read; the wait is for that state, however busy the machine.
      await vi.waitFor(async () => expect((await visit(`/news/${newsId}`)).headers.get('X-Page-Cache')).toBe('HIT'), {
        timeout: 60_000,
      });
      expect(renders).toBe(2);
    } finally {
      clock.mockRestore();
    }
  });

  test('spreads the pages’ revalidation over REVALIDATE_SPREAD_MS, so pages stored together do not turn stale together', () => {
    const storedAt = 1_000_000;
    const keys = Array.from({ length: 40 }, (_, i) => `/news/${i + 1}`);
    const staleAt = keys.map((key) => {
      const page = { key, storedAt } as Parameters<typeof isFresh>[0];
      expect(isFresh(page, storedAt + REVALIDATE_MS)).toBe(true);
      expect(isFresh(page, storedAt + REVALIDATE_MS + REVALIDATE_SPREAD_MS + 1)).toBe(false);
      // The first moment it is stale, to the second.
      let second = REVALIDATE_MS / 1000;
      while (isFresh(page, storedAt + second * 1000)) second++;
      return second;
    });
    // Forty pages rendered in the same instant turn stale over the spread's whole span, not in one minute.
    const minutes = new Set(staleAt.map((second) => Math.floor(second / 60)));
    expect(minutes.size).toBeGreaterThanOrEqual(3);
    expect(Math.max(...staleAt) - Math.min(...staleAt)).toBeGreaterThan(REVALIDATE_SPREAD_MS / 1000 / 2);
  });

  test('renders stale pages behind their answers one at a time, each page once', async () => {
    const page = (label: string) => async () =>
      new Response(`<!doctype html><p>${label}</p>`, { headers: { 'Content-Type': 'text/html; charset=utf-8' } });
    await visit('/case', {}, page('cases'));
    await visit('/dingzhi', {}, page('custom'));
    const clock = vi.spyOn(Date, 'now').mockReturnValue(Date.now() + STALE_AFTER);
    try {
      let finish = () => {};
      const held = new Promise<void>((resolve) => {
        finish = resolve;
      });
      const started: string[] = [];
      const holding = (label: string) => async () => {
        started.push(label);
        await held;
        return page(label)();
      };
      expect((await visit('/case', {}, holding('cases again'))).headers.get('X-Page-Cache')).toBe('STALE');
      expect((await visit('/case', {}, holding('cases twice'))).headers.get('X-Page-Cache')).toBe('STALE');
      expect((await visit('/dingzhi', {}, holding('custom again'))).headers.get('X-Page-Cache')).toBe('STALE');
      await vi.waitFor(() => expect(started).toEqual(['cases again']), { timeout: 60_000 });
      // While the first render is held the second page waits: started together, renders run
      // their synchronous parts back to back and hold up every reader.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(started).toEqual(['cases again']);
      finish();
      await vi.waitFor(() => expect(started).toEqual(['cases again', 'custom again']), { timeout: 60_000 });
      await vi.waitFor(
        async () => expect(await (await visit('/dingzhi', {}, page('unused'))).text()).toContain('custom again'),
        { timeout: 60_000 },
      );
      expect(await (await visit('/case', {}, page('unused'))).text()).toContain('cases again');
    } finally {
      clock.mockRestore();
    }
  });

  test('a stale page found gone when rendered again is no longer served', async () => {
    await visit(`/news/${newsId}`);
    const now = Date.now();
    const clock = vi.spyOn(Date, 'now').mockReturnValue(now + STALE_AFTER);
    try {
      const gone = () =>
        Promise.resolve(new Response('not found', { status: 404, headers: { 'Content-Type': 'text/html' } }));
      expect((await visit(`/news/${newsId}`, {}, gone)).headers.get('X-Page-Cache')).toBe('STALE');
      await vi.waitFor(async () => expect((await visit(`/news/${newsId}`, {}, gone)).status).toBe(404), {
        timeout: 60_000,
      });
    } finally {
      clock.mockRestore();
    }
  });

  test('keeps pages on disk so that a new process starts warm, and purges them there', async () => {
    await visit(`/news/${newsId}`);
    const dir = pageCache().dir;
    const restarted = new PageCache(dir);
    expect(await restarted.get(`/news/${newsId}`, `/news/${newsId}`)).toMatchObject({ pathname: `/news/${newsId}` });
    await contentChanged('news');
    expect(fs.existsSync(path.join(dir, encodeURIComponent(`/news/${newsId}`)))).toBe(false);
    expect(await new PageCache(dir).get(`/news/${newsId}`, `/news/${newsId}`)).toBeUndefined();
  });
});

describe('font pages', () => {
  const page = (label: string) => async () =>
    new Response(`<!doctype html><p>${label}</p>`, { headers: { 'Content-Type': 'text/html; charset=utf-8' } });

  test('are served from the cache and purged when a font changes, not when an article does', async () => {
    await visit('/font', {}, page('library'));
    await visit('/font/noto-sans-sc', {}, page('detail'));
    await visit('/font?text=%E6%B0%B8', {}, page('sample'));
    for (const target of ['/font', '/font/noto-sans-sc', '/font?text=%E6%B0%B8']) {
      expect((await visit(target, {}, page('again'))).headers.get('X-Page-Cache')).toBe('HIT');
    }
    await contentChanged('news');
    expect((await visit('/font', {}, page('again'))).headers.get('X-Page-Cache')).toBe('HIT');
    await contentChanged('font');
    for (const target of ['/font', '/font/noto-sans-sc', '/font?text=%E6%B0%B8']) {
      expect((await visit(target, {}, page('after'))).headers.get('X-Page-Cache')).toBe('MISS');
    }
  });

  test('a sample line is not written to disk', async () => {
    await visit('/font?text=%E6%B0%B8', {}, page('sample'));
    expect(fs.existsSync(path.join(pageCache().dir, encodeURIComponent('/font')))).toBe(false);
    await visit('/font', {}, page('library'));
    expect(fs.existsSync(path.join(pageCache().dir, encodeURIComponent('/font')))).toBe(true);
  });

  test('hold at most MAX_VARIANTS_PER_PATH query variants of one path; more are sent but not kept', async () => {
    for (let n = 0; n < MAX_VARIANTS_PER_PATH; n++) await visit(`/font?keyword=k${n}`, {}, page(`k${n}`));
    const extra = await visit('/font?keyword=extra', {}, page('extra'));
    expect(extra.status).toBe(200);
    expect(await extra.text()).toContain('extra');
    expect((await visit('/font?keyword=extra', {}, page('extra'))).headers.get('X-Page-Cache')).toBe('MISS');
    // Variants already held are still served, and other paths still have room.
    expect((await visit('/font?keyword=k0', {}, page('k0'))).headers.get('X-Page-Cache')).toBe('HIT');
    await visit('/font/noto-sans-sc', {}, page('detail'));
    expect((await visit('/font/noto-sans-sc', {}, page('detail'))).headers.get('X-Page-Cache')).toBe('HIT');
    // A purge frees the room again.
    await contentChanged('font');
    await visit('/font?keyword=extra', {}, page('extra'));
    expect((await visit('/font?keyword=extra', {}, page('extra'))).headers.get('X-Page-Cache')).toBe('HIT');
  });
});

describe('PageCache.keepOnlyBuild', () => {
  test('keeps warm pages of the same build and forgets those of another build', async () => {
    const dir = pageCache().dir;
    await pageCache().keepOnlyBuild('build-a');
    await visit(`/news/${newsId}`);

    const sameBuild = new PageCache(dir);
    await sameBuild.keepOnlyBuild('build-a');
    expect(await sameBuild.get(`/news/${newsId}`, `/news/${newsId}`)).toBeDefined();

    // Pages of build-a name its scripts and styles, which build-b no longer has.
    const nextBuild = new PageCache(dir);
    await nextBuild.keepOnlyBuild('build-b');
    expect(await nextBuild.get(`/news/${newsId}`, `/news/${newsId}`)).toBeUndefined();
  });
});
