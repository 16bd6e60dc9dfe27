import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { thumbKeyOf } from '../../src/server/content/covers.ts';
import {
  articles,
  fontGroupFonts,
  fontGroups,
  friendLinks,
  keywords,
  promotions,
  tags,
} from '../../src/server/db/schema/index.ts';
import { seedContent } from '../../src/server/db/seed/content-seed.ts';
import { storage } from '../../src/server/storage/index.ts';
import { CONTENT_FIXTURES, type ContentSuite, openContentSuite } from '../helpers/content.ts';

let suite: ContentSuite;
let firstRun: Awaited<ReturnType<typeof seedContent>>;

async function readAll(key: string): Promise<Buffer> {
  const object = await storage().get(key);
  if (!object) throw new Error(`missing ${key}`);
  const chunks: Buffer[] = [];
  for await (const chunk of object.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

beforeAll(async () => {
  suite = await openContentSuite({ content: false });
  firstRun = await seedContent({ dir: CONTENT_FIXTURES });
});
afterAll(async () => suite.close());

describe('seedContent', () => {
  test('adds every fixture file and the site tables on the first run', async () => {
    expect(firstRun.added).toEqual({ news: 3, baike: 3, zixun: 1, album: 2, heji: 1, case: 1 });
    expect(firstRun.siteRows).toBe(2 + 3 + 2 + 1 + 1 + 1);
    const [articleCount] = await suite.database.db.select({ n: count() }).from(articles);
    expect(articleCount?.n).toBe(7);
    const baikeTags = await suite.database.db.select().from(tags).where(eq(tags.kind, 'baike'));
    expect(baikeTags.map((tag) => tag.name).sort()).toEqual(['书法家', '行书', '楷书'].sort());
  });

  test('renders Markdown to sanitized HTML', async () => {
    const [news] = await suite.database.db.select().from(articles).where(eq(articles.slug, 'news/siyuan-release'));
    expect(news?.bodyHtml).toContain('<strong>常用汉字</strong>');
    expect(news?.bodyHtml).not.toContain('<script');
    expect(news?.bodyHtml).toContain('rel="noopener noreferrer"');
  });

  test('skips unknown fonts with a warning and keeps the known ones in order', async () => {
    expect(firstRun.warnings.some((w) => w.includes("'no-such-font'"))).toBe(true);
    const [album] = await suite.database.db.select().from(fontGroups).where(eq(fontGroups.title, '开源黑体专辑'));
    const members = await suite.database.db
      .select()
      .from(fontGroupFonts)
      .where(and(eq(fontGroupFonts.kind, 'album'), eq(fontGroupFonts.groupId, album?.id ?? 0)))
      .orderBy(fontGroupFonts.sort);
    expect(members).toHaveLength(2);
  });

  test('draws WebP covers of 1200×630 with 600×315 thumbnails under covers/<kind>/<slug>-<hash>.webp', async () => {
    const [entry] = await suite.database.db.select().from(articles).where(eq(articles.slug, 'baike/lantingxu'));
    expect(entry?.coverKey).toMatch(/^covers\/baike\/lantingxu-[0-9a-f]{12}\.webp$/);
    const cover = await sharp(await readAll(entry?.coverKey ?? '')).metadata();
    expect(cover).toMatchObject({ format: 'webp', width: 1200, height: 630 });
    const thumb = await sharp(await readAll(thumbKeyOf(entry?.coverKey ?? ''))).metadata();
    expect(thumb).toMatchObject({ format: 'webp', width: 600, height: 315 });
  });

  test('adds nothing on a second run and leaves editors’ changes alone', async () => {
    const db = suite.database.db;
    await db.update(articles).set({ title: '编辑改过的标题' }).where(eq(articles.slug, 'news/siyuan-release'));
    await db.update(fontGroups).set({ title: '编辑改过的专辑' }).where(eq(fontGroups.title, '手写毛笔专辑'));
    await db.update(promotions).set({ summary: '编辑改过' });
    const again = await seedContent({ dir: CONTENT_FIXTURES });
    expect(again.added).toEqual({});
    expect(again.siteRows).toBe(0);
    const [news] = await db.select().from(articles).where(eq(articles.slug, 'news/siyuan-release'));
    expect(news?.title).toBe('编辑改过的标题');
    const [albumCount] = await db.select({ n: count() }).from(fontGroups).where(eq(fontGroups.kind, 'album'));
    expect(albumCount?.n).toBe(2);
    const [linkCount] = await db.select({ n: count() }).from(friendLinks);
    expect(linkCount?.n).toBe(2);
  });

  test('adds only the new files when the folder grows', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'font-alliance-content-dir-'));
    try {
      fs.cpSync(CONTENT_FIXTURES, dir, { recursive: true });
      fs.writeFileSync(
        path.join(dir, 'news', 'new-item.md'),
        '---\ntitle: 新增的一篇新闻\nsummary: 新文件\npublishedAt: 2024-06-01\n---\n正文。\n',
      );
      const site = JSON.parse(fs.readFileSync(path.join(dir, 'site.json'), 'utf8'));
      site.keywords.push({ word: '隶书', weight: 5 });
      fs.writeFileSync(path.join(dir, 'site.json'), JSON.stringify(site));
      const result = await seedContent({ dir });
      expect(result.added).toEqual({ news: 1 });
      expect(result.siteRows).toBe(1);
      const words = await suite.database.db.select().from(keywords);
      expect(words.map((row) => row.word)).toContain('隶书');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('reports a malformed file and seeds the others', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'font-alliance-content-bad-'));
    try {
      fs.mkdirSync(path.join(dir, 'zixun'));
      fs.writeFileSync(path.join(dir, 'zixun', 'broken.md'), 'no frontmatter here');
      fs.writeFileSync(path.join(dir, 'zixun', 'fine.md'), '---\ntitle: 可以读的文章\n---\n正文');
      const result = await seedContent({ dir });
      expect(result.added).toEqual({ zixun: 1 });
      expect(result.warnings.some((w) => w.includes('zixun/broken.md'))).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
