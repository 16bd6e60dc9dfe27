import { and, desc, eq } from 'drizzle-orm';
import { db as configuredDb, type Db } from '../db/client.ts';
import { articles, fontFamilies, fontGroups, promotions, videos } from '../db/schema/index.ts';
import { env } from '../env.ts';
import { absoluteUrl, escapeXml } from './seo.ts';

/** Pages of the site without data of their own, listed in the sitemap beside the content pages. */
const STATIC_PATHS = [
  '/',
  '/font',
  '/album',
  '/heji',
  '/news',
  '/baike',
  '/zixun',
  '/case',
  '/video',
  '/tools',
  '/tools/converter',
  '/tools/subset',
  '/tools/pixel',
  '/tools/wordcloud',
  '/tools/unidentifiedBody',
  '/tougao',
  '/dingzhi',
  '/contact',
  '/help',
  '/license',
  '/freetype',
  '/agreement/font',
  '/agreement/register',
];

function urlEntry(path: string, lastmod?: Date | null): string {
  const date = lastmod ? `<lastmod>${lastmod.toISOString()}</lastmod>` : '';
  return `<url><loc>${escapeXml(absoluteUrl(path))}</loc>${date}</url>`;
}

/** The sitemap: the site's fixed pages, every published article, album, collection, font, promotion and video. */
export async function buildSitemap(database?: Db): Promise<string> {
  const db = database ?? (await configuredDb());
  const [articleRows, albumRows, collectionRows, familyRows, promotionRows, videoRows] = await Promise.all([
    db
      .select({ id: articles.id, kind: articles.kind, updatedAt: articles.updatedAt })
      .from(articles)
      .where(eq(articles.status, 'published'))
      .orderBy(desc(articles.publishedAt)),
    db
      .select({ id: fontGroups.id, at: fontGroups.publishedAt })
      .from(fontGroups)
      .where(and(eq(fontGroups.kind, 'album'), eq(fontGroups.status, 'published'))),
    db
      .select({ id: fontGroups.id, at: fontGroups.publishedAt })
      .from(fontGroups)
      .where(and(eq(fontGroups.kind, 'heji'), eq(fontGroups.status, 'published'))),
    db
      .select({ gno: fontFamilies.gno, at: fontFamilies.updatedAt })
      .from(fontFamilies)
      .where(eq(fontFamilies.published, true)),
    db.select({ id: promotions.id }).from(promotions).where(eq(promotions.status, 'published')),
    db.select({ id: videos.id, at: videos.updatedAt }).from(videos).where(eq(videos.status, 'published')),
  ]);
  const entries = [
    ...STATIC_PATHS.map((path) => urlEntry(path)),
    ...articleRows.map((row) => urlEntry(`/${row.kind}/${row.id}`, row.updatedAt)),
    ...albumRows.map((row) => urlEntry(`/album/${row.id}`, row.at)),
    ...collectionRows.map((row) => urlEntry(`/heji/${row.id}`, row.at)),
    ...familyRows.map((row) => urlEntry(`/font/${encodeURIComponent(row.gno)}`, row.at)),
    ...promotionRows.map((row) => urlEntry(`/promotion/${row.id}`)),
    ...videoRows.map((row) => urlEntry(`/video/${row.id}`, row.at)),
  ];
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('\n')}\n</urlset>\n`;
}

/** The news RSS 2.0 feed: the latest 30 published news articles. */
export async function buildNewsFeed(database?: Db): Promise<string> {
  const db = database ?? (await configuredDb());
  const config = env();
  const rows = await db
    .select()
    .from(articles)
    .where(and(eq(articles.kind, 'news'), eq(articles.status, 'published')))
    .orderBy(desc(articles.publishedAt), desc(articles.id))
    .limit(30);
  const items = rows.map((row) => {
    const link = escapeXml(absoluteUrl(`/news/${row.id}`));
    const date = row.publishedAt ? `<pubDate>${row.publishedAt.toUTCString()}</pubDate>` : '';
    const author = row.author ? `<dc:creator>${escapeXml(row.author)}</dc:creator>` : '';
    return `<item><title>${escapeXml(row.title)}</title><link>${link}</link><guid isPermaLink="true">${link}</guid>${date}${author}<description>${escapeXml(row.summary)}</description></item>`;
  });
  const self = escapeXml(absoluteUrl('/news/rss.xml'));
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    '<channel>',
    `<title>${escapeXml(`${config.SITE_TITLE} · 资讯`)}</title>`,
    `<link>${escapeXml(absoluteUrl('/news'))}</link>`,
    `<atom:link href="${self}" rel="self" type="application/rss+xml"/>`,
    '<description>字体行业动态、新字体发布与联盟活动的报道。</description>',
    '<language>zh-CN</language>',
    ...items,
    '</channel>',
    '</rss>',
    '',
  ].join('\n');
}

/** robots.txt: everything public may be crawled; the user centre, editing area and API may not. */
export function buildRobots(): string {
  return [
    'User-agent: *',
    'Disallow: /user',
    'Disallow: /account',
    'Disallow: /editor',
    'Disallow: /web/api',
    'Disallow: /api',
    'Allow: /',
    '',
    `Sitemap: ${absoluteUrl('/sitemap.xml')}`,
    '',
  ].join('\n');
}
