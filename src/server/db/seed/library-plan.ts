import { inArray } from 'drizzle-orm';
import { coverFontCandidates } from '../../content/covers.ts';
import { env } from '../../env.ts';
import { db as configuredDb, type Db } from '../client.ts';
import { fontFamilies } from '../schema/index.ts';
import type { ContentFile } from './content-files.ts';
import { type CatalogueEntry, FIXTURE_CATALOGUE, FONT_CATALOGUE } from './font-catalogue.ts';
import { sizeOf } from './fonts.ts';

/** Every family of a FONT_SEED source's library. */
export function catalogueOf(source: 'registry' | 'fixtures' | 'none'): readonly CatalogueEntry[] {
  if (source === 'none') return [];
  return source === 'registry' ? FONT_CATALOGUE : FIXTURE_CATALOGUE;
}

/**
 * The order the library is seeded in once the site answers: first the families the site's articles,
 * albums and cases name or are drawn in, the most used first (each one seeded lets the items waiting
 * for it appear), then the others smallest first, so that the library fills quickly and the largest
 * families come last. A name that is a weight of a family (`noto-sans-sc-700`) counts for the family.
 */
export function seedingOrder(catalogue: readonly CatalogueEntry[], files: readonly ContentFile[]): CatalogueEntry[] {
  const gnos = new Set(catalogue.map((entry) => entry.gno));
  const familyOf = (name: string) =>
    gnos.has(name) ? name : ([...gnos].find((gno) => name.startsWith(`${gno}-`)) ?? undefined);
  const uses = new Map<string, number>();
  const use = (name: string) => {
    const gno = familyOf(name);
    if (gno) uses.set(gno, (uses.get(gno) ?? 0) + 1);
  };
  for (const file of files) {
    for (const name of file.fonts) use(name);
    // The family the item's cover is drawn in when it names none of its own.
    const [cover] = coverFontCandidates(file.kind, []).filter((name) => familyOf(name));
    if (file.fonts.length === 0 && cover) use(cover);
  }
  return [...catalogue].sort(
    (a, b) => (uses.get(b.gno) ?? 0) - (uses.get(a.gno) ?? 0) || sizeOf(a) - sizeOf(b) || a.gno.localeCompare(b.gno),
  );
}

/** The families of `catalogue` that have rows in the database. */
export async function familiesPresent(db: Db, catalogue: readonly CatalogueEntry[]): Promise<Set<string>> {
  if (catalogue.length === 0) return new Set();
  const rows = await db
    .select({ gno: fontFamilies.gno })
    .from(fontFamilies)
    .where(
      inArray(
        fontFamilies.gno,
        catalogue.map((entry) => entry.gno),
      ),
    );
  return new Set(rows.map((row) => row.gno));
}

/** How far the library has grown: families in the database out of the catalogue's. */
export interface LibraryGrowth {
  have: number;
  total: number;
}

/**
 * The library's growth while families are still being added after start, or undefined once every
 * family of the catalogue is there (and always without a library, FONT_SEED=none). A page showing it
 * is purged as each family arrives (contentChanged('font')), so it reads the database only then.
 */
export async function libraryGrowth(database?: Db): Promise<LibraryGrowth | undefined> {
  const catalogue = catalogueOf(env().FONT_SEED);
  if (catalogue.length === 0) return undefined;
  const have = (await familiesPresent(database ?? (await configuredDb()), catalogue)).size;
  return have < catalogue.length ? { have, total: catalogue.length } : undefined;
}
