import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { closeDatabase, type Database, openDatabase, useDatabase } from '../../src/server/db/client.ts';
import { friendLinks } from '../../src/server/db/schema/index.ts';
import { siteRoutes } from '../../src/server/site/routes.ts';

let opened: Database;

beforeAll(async () => {
  opened = await openDatabase({ dir: 'memory://' });
  useDatabase(opened);
});
afterAll(closeDatabase);

describe('siteRoutes', () => {
  test('lists friendly links by sort, highest first, in the envelope', async () => {
    await opened.db.insert(friendLinks).values([
      { name: '书法字典', url: 'https://shufa.example', sort: 5 },
      { name: '开源字体计划', url: 'https://fonts.example', sort: 20 },
      { name: '排版指南', url: 'https://type.example', sort: 5, logoKey: 'links/type.png' },
      { name: '设计周刊', url: 'https://weekly.example', sort: 0 },
    ]);
    const app = new Hono().route('/web/api', siteRoutes());
    const res = await app.request('/web/api/friendshipLinks/getFriendshipLinks');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { code: string; data: { name: string; sort: number; logo: string | null }[] };
    expect(body.code).toBe('200');
    expect(body.data.map((link) => link.name)).toEqual(['开源字体计划', '书法字典', '排版指南', '设计周刊']);
    expect(body.data[0]?.logo).toBeNull();
    expect(body.data[2]?.logo).toContain('links/type.png');
  });
});
