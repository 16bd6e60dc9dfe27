import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { type BrowserFakes, installBrowserFakes } from '../helpers/browser-fakes.ts';
import { type Answer, type StatusServer, startStatusServer } from '../helpers/status-server.ts';

let server: StatusServer;
let answers: Record<string, Answer>;
let fakes: BrowserFakes & { restore: () => void };

beforeAll(async () => {
  server = await startStatusServer((request) => answers[request.url.split('?')[0] ?? ''] ?? { status: 404 });
});
afterAll(() => server.close());

beforeEach(() => {
  fakes = installBrowserFakes();
  answers = {};
  server.received.length = 0;
  vi.stubEnv('PUBLIC_API_BASE', server.url);
  vi.resetModules();
});

afterEach(() => {
  vi.unstubAllEnvs();
  fakes.restore();
});

const ok = (data: unknown, delayMs = 0): Answer => ({ body: { code: '200', message: 'ok', data }, delayMs });
const hits = (path: string) => server.received.filter((r) => r.url.startsWith(path)).length;

describe('sortFriendLinks', () => {
  test('orders by sort, highest first', async () => {
    const { sortFriendLinks } = await import('../../src/stores/app.ts');
    const links = [
      { id: 1, name: 'a', url: 'https://a.example', sort: 1 },
      { id: 2, name: 'b', url: 'https://b.example', sort: 30 },
      { id: 3, name: 'c', url: 'https://c.example', sort: 7 },
    ];
    expect(sortFriendLinks(links).map((link) => link.id)).toEqual([2, 3, 1]);
    expect(links.map((link) => link.id)).toEqual([1, 2, 3]);
  });
});

describe('loadFriendLinks', () => {
  test('fills the store sorted, and leaves it empty quietly when the call fails', async () => {
    const app = await import('../../src/stores/app.ts');
    const toast = await import('../../src/stores/toast.ts');
    await app.loadFriendLinks();
    expect(app.$friendLinks.get()).toEqual([]);
    expect(toast.$toasts.get()).toEqual([]);

    answers['/web/api/friendshipLinks/getFriendshipLinks'] = ok([
      { id: 1, name: '甲', url: 'https://a.example', sort: 2 },
      { id: 2, name: '乙', url: 'https://b.example', sort: 9 },
    ]);
    await app.loadFriendLinks();
    expect(app.$friendLinks.get().map((link) => link.name)).toEqual(['乙', '甲']);
  });
});

describe('fetchHomeData', () => {
  test('fetches once, reuses the cache, and fetches again only on reload', async () => {
    answers['/web/api/fontOverride/home/getData'] = ok({ banner: 1 }, 30);
    const app = await import('../../src/stores/app.ts');
    const [a, b] = await Promise.all([app.fetchHomeData(), app.fetchHomeData()]);
    expect(a).toEqual({ banner: 1 });
    expect(b).toEqual({ banner: 1 });
    await app.fetchHomeData();
    expect(hits('/web/api/fontOverride/home/getData')).toBe(1);
    expect(app.$homeData.get()).toEqual({ banner: 1 });

    answers['/web/api/fontOverride/home/getData'] = ok({ banner: 2 });
    await expect(app.fetchHomeData(true)).resolves.toEqual({ banner: 2 });
    expect(hits('/web/api/fontOverride/home/getData')).toBe(2);
    expect(app.$homeData.get()).toEqual({ banner: 2 });
  });
});

describe('loadFontDicts', () => {
  test('asks the server once and reuses the dictionary', async () => {
    answers['/web/api/dict/font-default'] = ok({ category: [{ dictNumber: 1, dictName: '黑体' }] }, 20);
    const list = await import('../../src/stores/font-list.ts');
    await Promise.all([list.loadFontDicts(), list.loadFontDicts()]);
    await list.loadFontDicts();
    expect(hits('/web/api/dict/font-default')).toBe(1);
    expect(list.findDict(list.$fontDicts.get(), 'category', '1')?.dictName).toBe('黑体');
  });

  test('tries again after a failure', async () => {
    const list = await import('../../src/stores/font-list.ts');
    const toast = await import('../../src/stores/toast.ts');
    await expect(list.loadFontDicts()).rejects.toThrow();
    answers['/web/api/dict/font-default'] = ok({ script: [] });
    await expect(list.loadFontDicts()).resolves.toEqual({ script: [] });
    toast.closeAllToasts();
  });
});

describe('font list state', () => {
  test('starts in the Table layout, each face on its own sample until a text is typed', async () => {
    const list = await import('../../src/stores/font-list.ts');
    expect(list.$listLayout.get()).toBe('Table');
    expect(list.$sampleText.get()).toBe('');
    list.setSampleText('天地玄黄');
    expect(list.$sampleText.get()).toBe('天地玄黄');
    list.setSampleText('   ');
    expect(list.$sampleText.get()).toBe('');
  });
});

describe('setDark', () => {
  test('stores the choice and sets or removes theme="dark" on the root', async () => {
    const app = await import('../../src/stores/app.ts');
    const attributes = new Map<string, string>();
    const root = {
      style: { colorScheme: '' },
      setAttribute: (name: string, value: string) => attributes.set(name, value),
      removeAttribute: (name: string) => attributes.delete(name),
      getAttribute: (name: string) => attributes.get(name) ?? null,
      dataset: {},
    };
    Object.defineProperty(fakes.document, 'documentElement', { value: root, configurable: true });
    app.setDark(true);
    expect(app.$dark.get()).toBe(true);
    expect(fakes.localStorage.getItem('theme')).toBe('dark');
    expect(attributes.get('theme')).toBe('dark');
    app.setDark(false);
    expect(fakes.localStorage.getItem('theme')).toBe('light');
    expect(attributes.has('theme')).toBe(false);
    app.restoreDark();
    expect(app.$dark.get()).toBe(false);
  });
});

describe('$downloadModal', () => {
  test('defaults to visible with no files (SPEC §3)', async () => {
    const app = await import('../../src/stores/app.ts');
    expect(app.$downloadModal.get()).toEqual({ visible: true, files: [] });
    app.closeDownloadModal();
    expect(app.$downloadModal.get().visible).toBe(false);
    app.openDownloadModal([{ name: 'a.ttf', url: '/files/a.ttf' }]);
    expect(app.$downloadModal.get()).toEqual({ visible: true, files: [{ name: 'a.ttf', url: '/files/a.ttf' }] });
  });
});
