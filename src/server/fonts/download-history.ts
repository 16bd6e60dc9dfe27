import { count, desc, eq } from 'drizzle-orm';
import { Hono } from 'hono';
import type { DownloadRecord } from '../../contract/fonts.ts';
import { type AccountResolver, requireAccount, sessionAccount } from '../auth/current-account.ts';
import { db as configuredDb, type Db } from '../db/client.ts';
import { downloadHistory, fontFamilies, fonts } from '../db/schema/index.ts';
import { ok } from '../http/envelope.ts';
import { pageQuery, validate } from '../http/validate.ts';
import type { Page } from './catalogue.ts';

export type { DownloadRecord };

/** One page of the account's downloads, newest first (fontOverride/history). */
export async function downloadHistoryPage(
  accountId: number,
  query: { current: number; size: number },
  database?: Db,
): Promise<Page<DownloadRecord>> {
  const db = database ?? (await configuredDb());
  const mine = eq(downloadHistory.accountId, accountId);
  const [counted] = await db.select({ n: count() }).from(downloadHistory).where(mine);
  const rows = await db
    .select({
      id: downloadHistory.id,
      fontGNo: fontFamilies.gno,
      familyName: fontFamilies.nameZh,
      childFontGNo: fonts.gno,
      styleName: fonts.styleName,
      createdAt: downloadHistory.createdAt,
    })
    .from(downloadHistory)
    .innerJoin(fontFamilies, eq(downloadHistory.familyId, fontFamilies.id))
    .leftJoin(fonts, eq(downloadHistory.fontId, fonts.id))
    .where(mine)
    .orderBy(desc(downloadHistory.createdAt), desc(downloadHistory.id))
    .limit(query.size)
    .offset((query.current - 1) * query.size);
  const total = counted?.n ?? 0;
  return {
    records: rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
    total,
    size: query.size,
    current: query.current,
    pages: Math.ceil(total / query.size),
  };
}

/** The download history (SPEC §7 User data: fontOverride/history), mounted at /web/api; needs a login. */
export function downloadHistoryRoutes(options: { account?: AccountResolver } = {}): Hono {
  const resolve = options.account ?? sessionAccount;
  const routes = new Hono();
  routes.get('/fontOverride/history', validate('query', pageQuery), async (c) =>
    c.json(ok(await downloadHistoryPage(await requireAccount(resolve, c), c.req.valid('query')))),
  );
  return routes;
}
