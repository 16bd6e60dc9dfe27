import { contentChanged } from '../../content/changes.ts';
import type { CoverKind } from '../../content/cover-render.ts';
import { coverFontCandidates } from '../../content/covers.ts';
import { log } from '../../log.ts';
import { storage as configuredStorage, type Storage } from '../../storage/index.ts';
import { db as configuredDb, type Db } from '../client.ts';
import { fontFamilies } from '../schema/index.ts';
import { type ContentFile, type ContentKind, readContentFiles, readSiteData } from './content-files.ts';
import {
  type ItemOutcome,
  itemExists,
  type SeedItemContext,
  seedArticle,
  seedCase,
  seedFontGroup,
} from './content-items.ts';
import { seedSiteTables } from './content-site.ts';

/** Options of seedContent; all have defaults. */
export interface SeedContentOptions {
  /** The folder holding news/, baike/, … and site.json; defaults to src/server/db/seed/content. */
  dir?: string;
  db?: Db;
  storage?: Storage;
  onProgress?: (done: number, total: number) => void;
  /**
   * The library families still to come. An item that names one of them, or whose cover has none of
   * its fonts yet while one is coming, waits for a later run instead of being drawn without them
   * (an item is never changed once added). Without it every item is added now.
   */
  awaitedFamilies?: ReadonlySet<string>;
  /** Ends the run between items (a server stopping); what is not added yet is added on the next run. */
  signal?: AbortSignal;
  /**
   * Whether kept items' covers are looked at again (drawn anew when what they are drawn from
   * changed); the passes that only add what waited for a family skip it. Default true.
   */
  redraw?: boolean;
}

/** What a run did. */
export interface SeedContentResult {
  added: Partial<Record<ContentKind, number>>;
  kept: number;
  /** Kept items whose covers were drawn again (new drawing rules, or faces that changed). */
  redrawn: number;
  siteRows: number;
  /** Items (and promotions and ads) left for a later run, with the families each waits for. */
  waiting: Array<{ item: string; families: string[] }>;
  /** Files that could not be read, unknown fonts and items that failed; each also logged. */
  warnings: string[];
}

// Covers are drawn and encoded item by item; handing control back to the event loop in between
// keeps a server that seeds in the background responsive.
const yieldNow = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The families an item of `kind` naming `fonts` waits for: those it names that are still to come,
 * or, when its cover can be drawn in none of its candidate fonts yet, the first candidate to come.
 */
export function familiesAwaited(
  kind: CoverKind,
  fonts: readonly string[],
  present: ReadonlySet<string>,
  awaited: ReadonlySet<string>,
): string[] {
  // A weight of a family (`noto-sans-sc-700`) waits for its family.
  const familyOf = (name: string) =>
    awaited.has(name) ? name : [...awaited].find((gno) => name.startsWith(`${gno}-`));
  const own = [...new Set(fonts.map(familyOf).filter((gno): gno is string => gno !== undefined))];
  if (own.length > 0) return own;
  const candidates = coverFontCandidates(kind, fonts);
  if (candidates.some((gno) => present.has(gno))) return [];
  return candidates.filter((gno) => awaited.has(gno)).slice(0, 1);
}

/**
 * Seeds the site's own content from Markdown files and site.json: articles (news, baike, zixun),
 * albums, collections (heji) and cases, each with a cover drawn in one of its library fonts, and the
 * site-wide tables. Keyed by file name: a file whose row exists is left alone, so editors' changes
 * survive restarts and only new files are added; the keys are unique, so nodes seeding at once add
 * each item once. Purges the page cache when anything was added.
 */
export async function seedContent(options: SeedContentOptions = {}): Promise<SeedContentResult> {
  const db = options.db ?? (await configuredDb());
  const storage = options.storage ?? configuredStorage();
  const result: SeedContentResult = { added: {}, kept: 0, redrawn: 0, siteRows: 0, waiting: [], warnings: [] };
  const warn = (message: string) => {
    result.warnings.push(message);
    log().warn(message);
  };
  const ctx: SeedItemContext = { db, storage, warn, redrawn: () => result.redrawn++ };
  const awaited = options.awaitedFamilies ?? new Set<string>();
  const present = new Set((await db.select({ gno: fontFamilies.gno }).from(fontFamilies)).map((row) => row.gno));
  const waitsFor = (kind: CoverKind, fonts: readonly string[]) =>
    awaited.size === 0 ? [] : familiesAwaited(kind, fonts, present, awaited);

  const { files, errors } = await readContentFiles(options.dir);
  for (const error of errors) warn(error);
  // Oldest first, so that serial ids follow publication order (items that waited for fonts come later).
  files.sort((a, b) => (a.publishedAt?.getTime() ?? 0) - (b.publishedAt?.getTime() ?? 0));
  const total = files.length + 1;
  const sorts: Partial<Record<ContentKind, number>> = {};

  for (const [index, file] of files.entries()) {
    if (options.signal?.aborted) break;
    let outcome: ItemOutcome | 'waiting' = 'kept';
    // Later files list first: sort is "higher first" and files are read in date order.
    const sort = (sorts[file.kind] ?? 0) + 1;
    sorts[file.kind] = sort;
    try {
      outcome = await seedFile(ctx, file, sort, waitsFor(file.kind, file.fonts), options.redraw ?? true);
    } catch (error) {
      warn(
        `${file.kind}/${file.slug}.md could not be seeded: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (outcome === 'added') result.added[file.kind] = (result.added[file.kind] ?? 0) + 1;
    else if (outcome === 'waiting')
      result.waiting.push({ item: `${file.kind}/${file.slug}`, families: waitsFor(file.kind, file.fonts) });
    else result.kept++;
    if (outcome === 'redrawn') result.redrawn++;
    options.onProgress?.(index + 1, total);
    // Drawing covers is the heavy part; a server seeding in the background answers in between.
    if (outcome === 'added' || outcome === 'redrawn') await yieldNow();
  }

  if (!options.signal?.aborted)
    await seedSite(ctx, options.dir, result, (kind, fonts) => waitsFor(kind, fonts), options.redraw ?? true);
  options.onProgress?.(total, total);

  const addedItems = Object.values(result.added).reduce((sum, n) => sum + n, 0);
  if (addedItems > 0 || result.siteRows > 0 || result.redrawn > 0) await contentChanged('all');
  return result;
}

async function seedSite(
  ctx: SeedItemContext,
  dir: string | undefined,
  result: SeedContentResult,
  waitsFor: (kind: CoverKind, fonts: readonly string[]) => string[],
  redraw: boolean,
): Promise<void> {
  try {
    const site = await seedSiteTables(ctx, await readSiteData(dir), yieldNow, {
      canDraw: (kind) => waitsFor(kind, []).length === 0,
      redraw,
    });
    result.siteRows = site.added;
    for (const kind of ['promotion', 'ad'] as const) {
      const families = waitsFor(kind, []);
      if (site.waiting > 0 && families.length > 0) result.waiting.push({ item: `site.json ${kind}s`, families });
    }
  } catch (error) {
    ctx.warn(`site.json could not be seeded: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function seedFile(
  ctx: SeedItemContext,
  file: ContentFile,
  sort: number,
  awaited: string[],
  redraw: boolean,
): Promise<ItemOutcome | 'waiting'> {
  // An item waiting for a family is added once it is there; one already added keeps its cover until then.
  if (awaited.length > 0 || !redraw) {
    if (await itemExists(ctx.db, file)) return 'kept';
    if (awaited.length > 0) return 'waiting';
  }
  if (file.kind === 'album' || file.kind === 'heji') return seedFontGroup(ctx, file, sort);
  if (file.kind === 'case') return seedCase(ctx, file, sort);
  return seedArticle(ctx, file);
}
