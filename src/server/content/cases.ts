import { count, desc, eq } from 'drizzle-orm';
import type { CaseItem } from '../../contract/content.ts';
import { db as configuredDb, type Db } from '../db/client.ts';
import { cases, fontFamilies } from '../db/schema/index.ts';
import { webFontFamily } from '../fonts/catalogue.ts';
import { storage } from '../storage/index.ts';
import { coverUrls } from './covers.ts';
import { sanitizeArticleHtml } from './html.ts';
import { iso, offsetOf, type Page, type PageRequest, toPage } from './paging.ts';

export type { CaseItem };

/** One page of published cases, highest sort first, then newest. */
export async function listCases(query: PageRequest, database?: Db): Promise<Page<CaseItem>> {
  const db = database ?? (await configuredDb());
  const published = eq(cases.status, 'published');
  const [counted] = await db.select({ total: count() }).from(cases).where(published);
  const rows = await db
    .select({ item: cases, gno: fontFamilies.gno, familyName: fontFamilies.nameZh })
    .from(cases)
    .leftJoin(fontFamilies, eq(cases.familyId, fontFamilies.id))
    .where(published)
    .orderBy(desc(cases.sort), desc(cases.publishedAt), desc(cases.id))
    .limit(query.size)
    .offset(offsetOf(query));
  const records = rows.map(
    ({ item, gno, familyName }): CaseItem => ({
      id: item.id,
      title: item.title,
      client: item.client,
      summary: item.summary,
      bodyHtml: sanitizeArticleHtml(item.bodyHtml),
      ...coverUrls(storage(), item.coverKey),
      font: gno && familyName ? { fontGNo: gno, familyName, webFontFamily: webFontFamily(gno) } : null,
      publishedAt: iso(item.publishedAt),
    }),
  );
  return toPage(records, counted?.total ?? 0, query);
}
