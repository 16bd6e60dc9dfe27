import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildNewsFeed, buildRobots, buildSitemap } from '../../src/server/content/feeds.ts';
import { type ContentSuite, openContentSuite } from '../helpers/content.ts';

let suite: ContentSuite;

beforeAll(async () => {
  suite = await openContentSuite();
});
afterAll(async () => suite.close());

describe('buildSitemap', () => {
  test('lists the fixed pages and every published item with absolute addresses', async () => {
    const xml = await buildSitemap();
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset/);
    expect(xml).toContain('<loc>http://localhost:4321/baike</loc>');
    expect(xml).toMatch(/<loc>http:\/\/localhost:4321\/news\/\d+<\/loc><lastmod>/);
    expect(xml).toContain('<loc>http://localhost:4321/font/noto-sans-sc</loc>');
    expect(xml).toMatch(/<loc>http:\/\/localhost:4321\/heji\/\d+<\/loc>/);
    expect(xml).toMatch(/<loc>http:\/\/localhost:4321\/promotion\/\d+<\/loc>/);
    expect(xml.match(/\/news\/\d+</g)).toHaveLength(3);
  });
});

describe('buildNewsFeed', () => {
  test('carries the latest news, newest first, with escaped text', async () => {
    const xml = await buildNewsFeed();
    const titles = [...xml.matchAll(/<item><title>([^<]+)<\/title>/g)].map((match) => match[1]);
    expect(titles).toEqual(['专访：一位字体设计师的十年', '造字联盟年会在杭州举行', '思源黑体发布新版本']);
    expect(xml).toContain('<atom:link href="http://localhost:4321/news/rss.xml" rel="self"');
    expect(xml).toContain('<dc:creator>编辑部</dc:creator>');
  });
});

describe('buildRobots', () => {
  test('keeps crawlers out of private areas and points at the sitemap', () => {
    const robots = buildRobots();
    expect(robots).toContain('Disallow: /user');
    expect(robots).toContain('Disallow: /editor');
    expect(robots).toContain('Sitemap: http://localhost:4321/sitemap.xml');
  });
});
