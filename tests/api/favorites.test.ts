import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FavoriteFontGroup, FavoriteGroupDetail } from '../../src/server/favorites/fonts.ts';
import { favoriteRoutes } from '../../src/server/favorites/routes.ts';
import type { Page } from '../../src/server/fonts/catalogue.ts';
import { type DownloadRecord, downloadHistoryRoutes } from '../../src/server/fonts/download-history.ts';
import { downloadRoutes } from '../../src/server/fonts/download-routes.ts';
import { createDownloadLink } from '../../src/server/fonts/downloads.ts';
import {
  as,
  call,
  headerAccount,
  insertAccount,
  json,
  type LibraryFixture,
  openFixtureLibrary,
  routesApp,
} from '../helpers/font-library.ts';

let library: LibraryFixture;
let app: Hono;
let alice: number;
let bob: number;

const allFont = async (account: number) =>
  (await call<FavoriteFontGroup[]>(app, '/web/api/collection/allFont', as(account))).data;

beforeAll(async () => {
  library = await openFixtureLibrary('favorites');
  alice = await insertAccount(library.db, 'alice@example.com');
  bob = await insertAccount(library.db, 'bob@example.com');
  app = routesApp((routes) => {
    routes.route('/web/api', favoriteRoutes({ account: headerAccount }));
    routes.route('/web/api', downloadHistoryRoutes({ account: headerAccount }));
    routes.route('/api/v1', downloadRoutes({ account: headerAccount }));
  });
});

afterAll(async () => {
  await library.close();
});

describe('favourite fonts', () => {
  test('keeps one entry when the same family is starred twice', async () => {
    for (let i = 0; i < 2; i++) {
      const answer = await call(
        app,
        '/web/api/collection/addFont',
        as(alice, json('POST', { fontGNo: 'noto-sans-sc' })),
      );
      expect(answer).toMatchObject({ status: 200, code: '200' });
    }
    const [starred] = await allFont(alice);
    expect(starred).toMatchObject({ id: 0, name: '我的收藏' });
    expect(starred?.fontList.map((f) => f.fontGNo)).toEqual(['noto-sans-sc']);
  });

  test('stars the family when a child font gno is given, under both path prefixes', async () => {
    await call(
      app,
      '/web/api/fontOverride/collection/addFont',
      as(alice, json('POST', { fontGNo: 'zcool-kuaile-400' })),
    );
    expect((await allFont(alice))[0]?.fontList.map((f) => f.fontGNo)).toEqual(['noto-sans-sc', 'zcool-kuaile']);
    expect((await allFont(bob))[0]?.fontList).toEqual([]);
  });

  test('unstars, and unstarring again is harmless', async () => {
    for (let i = 0; i < 2; i++) {
      const answer = await call(
        app,
        '/web/api/collection/deleteFont',
        as(alice, json('POST', { fontGNo: 'zcool-kuaile' })),
      );
      expect(answer.status).toBe(200);
    }
    expect((await allFont(alice))[0]?.fontList.map((f) => f.fontGNo)).toEqual(['noto-sans-sc']);
  });

  test.each([
    ['no session', undefined, { fontGNo: 'noto-sans-sc' }, 401],
    ['an unknown font', 'alice', { fontGNo: 'nope' }, 404],
    ['an empty gno', 'alice', { fontGNo: ' ' }, 400],
  ])('answers %s with the right status', async (_label, who, body, status) => {
    const init = json('POST', body);
    const answer = await call(app, '/web/api/collection/addFont', who ? as(alice, init) : init);
    expect(answer.status).toBe(status);
  });
});

describe('favourite groups', () => {
  test('creates, fills, renames, reads and deletes a group', async () => {
    const created = await call<FavoriteFontGroup>(
      app,
      '/web/api/collection/add',
      as(alice, json('POST', { name: '海报标题' })),
    );
    expect(created.data).toMatchObject({ name: '海报标题', fontList: [] });
    const id = created.data.id;
    for (let i = 0; i < 2; i++) {
      await call(
        app,
        '/web/api/collection/addFont',
        as(alice, json('POST', { fontGNo: 'ma-shan-zheng', groupId: id })),
      );
    }
    const renamed = await call(
      app,
      `/web/api/collection/update?id=${id}`,
      as(alice, json('PUT', { name: '书法标题' })),
    );
    expect(renamed.status).toBe(200);
    const detail = await call<FavoriteGroupDetail>(
      app,
      `/web/api/fontOverride/collection/getDetail?id=${id}`,
      as(alice),
    );
    expect(detail.data.name).toBe('书法标题');
    expect(detail.data.fontList.map((f) => [f.fontGNo, f.familyName])).toEqual([['ma-shan-zheng', '马善政毛笔楷书']]);
    expect((await allFont(alice)).map((g) => g.name)).toEqual(['我的收藏', '书法标题']);
    const deleted = await call(app, `/web/api/collection/delete?id=${id}`, { ...as(alice), method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect((await allFont(alice)).map((g) => g.name)).toEqual(['我的收藏']);
  });

  test('draws each font in a line it has every character of, as the library does', async () => {
    for (const fontGNo of ['zcool-kuaile', 'noto-sans-sc']) {
      await call(app, '/web/api/collection/addFont', as(bob, json('POST', { fontGNo })));
    }
    const detail = await call<FavoriteGroupDetail>(app, '/web/api/fontOverride/collection/getDetail?id=0', as(bob));
    const samples = Object.fromEntries(detail.data.fontList.map((font) => [font.fontGNo, font.sample]));
    // 站酷快乐体 has no full-width comma: the fixed line 「永和九年，岁在癸丑」 marked it 「缺 1 字」.
    expect(samples).toEqual({
      'noto-sans-sc': '永和九年，岁在癸丑，暮春之初',
      'zcool-kuaile': '永和九年\u3000岁在癸丑\u3000暮春之初',
    });
  });

  test('answers 404 for another user’s group, whatever the call', async () => {
    const { data } = await call<FavoriteFontGroup>(
      app,
      '/web/api/collection/add',
      as(alice, json('POST', { name: '私藏' })),
    );
    const calls: Array<[string, RequestInit]> = [
      [`/web/api/collection/getDetail?id=${data.id}`, {}],
      [`/web/api/collection/update?id=${data.id}`, json('PUT', { name: '抢走' })],
      [`/web/api/collection/delete?id=${data.id}`, { method: 'DELETE' }],
      ['/web/api/collection/addFont', json('POST', { fontGNo: 'noto-sans-sc', groupId: data.id })],
    ];
    for (const [url, init] of calls) {
      const answer = await call(app, url, as(bob, init));
      expect(answer.status).toBe(404);
      expect(answer.message).toBe('收藏夹不存在');
    }
    const detail = await call<FavoriteGroupDetail>(app, `/web/api/collection/getDetail?id=${data.id}`, as(alice));
    expect(detail.data).toMatchObject({ name: '私藏', fontList: [] });
  });

  test('answers 400 for a blank or too long group name', async () => {
    for (const name of ['  ', '字'.repeat(21)]) {
      const answer = await call(app, '/web/api/collection/add', as(alice, json('POST', { name })));
      expect(answer.status).toBe(400);
      expect(answer.message).toContain('收藏夹名称（name）');
    }
  });
});

describe('GET /web/api/fontOverride/history', () => {
  test('lists only the account’s own downloads, newest first', async () => {
    for (const gno of ['noto-sans-sc', 'noto-sans-sc-700']) {
      await (await app.request((await createDownloadLink(gno)).url, as(alice))).arrayBuffer();
    }
    await (await app.request((await createDownloadLink('zcool-kuaile')).url, as(bob))).arrayBuffer();
    await (await app.request((await createDownloadLink('zcool-kuaile')).url)).arrayBuffer();
    const mine = await call<Page<DownloadRecord>>(app, '/web/api/fontOverride/history?size=10', as(alice));
    expect(mine.data.total).toBe(2);
    expect(mine.data.records.map((r) => [r.fontGNo, r.childFontGNo, r.styleName])).toEqual([
      ['noto-sans-sc', 'noto-sans-sc-700', 'Bold'],
      ['noto-sans-sc', null, null],
    ]);
    expect((await call(app, '/web/api/fontOverride/history')).status).toBe(401);
  });
});

describe('the mounted app', () => {
  test('answers the favourite calls with 401 without a session', async () => {
    const { createApp } = await import('../../src/server/app.ts');
    const answer = await call(createApp(), '/web/api/fontOverride/collection/allFont');
    expect(answer.status).toBe(401);
    expect(answer.message).toBe('请先登录');
  });
});
