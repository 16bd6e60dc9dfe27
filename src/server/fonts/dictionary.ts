import { and, asc, count, eq, sql } from 'drizzle-orm';
import { db as configuredDb, type Db } from '../db/client.ts';
import { fontDicts, fontFamilies, fonts } from '../db/schema/index.ts';

/** One entry of the font dictionary as the library filters show it (SPEC §3). */
export interface FontDictItem {
  /** Compared as text by clients, so always a string. */
  dictNumber: string;
  /** The Chinese label; `dictName` carries the same text for older clients. */
  label: string;
  dictName: string;
  sort: number;
  /** How many published families the entry would list. */
  count: number;
}

/** The font dictionary grouped by key; each key is also the list query parameter that filters by it. */
export type FontDictionary = Record<string, FontDictItem[]>;

const published = eq(fontFamilies.published, true);

function item(dictNumber: string, label: string, sort: number, counted: number): FontDictItem {
  return { dictNumber, label, dictName: label, sort, count: counted };
}

/** Published family counts grouped by one column, as a map from value to count. */
async function countsBy(
  db: Db,
  column: typeof fontFamilies.category | typeof fontFamilies.script | typeof fontFamilies.license,
): Promise<Map<string, number>> {
  const rows = await db.select({ value: column, n: count() }).from(fontFamilies).where(published).groupBy(column);
  return new Map(rows.map((row) => [row.value, row.n]));
}

/**
 * The font dictionary (GET /dict/font-default): the stored groups category, script and license,
 * plus two groups derived from the families themselves, weights ('multi' | 'single') and
 * commercialFree ('true' | 'false'), so that every library filter comes from one answer.
 */
export async function fontDictionary(database?: Db): Promise<FontDictionary> {
  const db = database ?? (await configuredDb());
  const entries = await db.select().from(fontDicts).orderBy(asc(fontDicts.dictKey), asc(fontDicts.sort));
  const columns = { category: fontFamilies.category, script: fontFamilies.script, license: fontFamilies.license };
  const counts = {
    category: await countsBy(db, columns.category),
    script: await countsBy(db, columns.script),
    license: await countsBy(db, columns.license),
  };
  const dictionary: FontDictionary = {};
  for (const entry of entries) {
    const perValue = counts[entry.dictKey as keyof typeof counts];
    const group = dictionary[entry.dictKey] ?? [];
    dictionary[entry.dictKey] = group;
    group.push(item(entry.dictNumber, entry.label, entry.sort, perValue?.get(entry.dictNumber) ?? 0));
  }

  const faces = sql<number>`(select count(*) from ${fonts} where ${fonts.familyId} = ${fontFamilies.id})`;
  const [multi] = await db
    .select({ n: count() })
    .from(fontFamilies)
    .where(and(published, sql`${faces} > 1`));
  const [all] = await db.select({ n: count() }).from(fontFamilies).where(published);
  const [free] = await db
    .select({ n: count() })
    .from(fontFamilies)
    .where(and(published, eq(fontFamilies.commercialFree, true)));
  const total = all?.n ?? 0;
  dictionary['weights'] = [
    item('multi', '多字重', 1, multi?.n ?? 0),
    item('single', '单字重', 2, total - (multi?.n ?? 0)),
  ];
  dictionary['commercialFree'] = [
    item('true', '免费商用', 1, free?.n ?? 0),
    item('false', '需授权商用', 2, total - (free?.n ?? 0)),
  ];
  return dictionary;
}
