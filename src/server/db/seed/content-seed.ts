import { contentChanged } from '../../content/changes.ts';
import { log } from '../../log.ts';
import { storage as configuredStorage, type Storage } from '../../storage/index.ts';
import { db as configuredDb, type Db } from '../client.ts';
import { type ContentKind, readContentFiles, readSiteData } from './content-files.ts';
import { type ItemOutcome, type SeedItemContext, seedArticle, seedCase, seedFontGroup } from './content-items.ts';
import { seedSiteTables } from './content-site.ts';

/** Options of seedContent; all have defaults. */
export interface SeedContentOptions {
  /** The folder holding news/, baike/, … and site.json; defaults to src/server/db/seed/content. */
  dir?: string;
  db?: Db;
  storage?: Storage;
  onProgress?: (done: number, total: number) => void;
}

/** What a run did. */
export interface SeedContentResult {
  added: Partial<Record<ContentKind, number>>;
  kept: number;
  /** Kept items whose covers were drawn again (new drawing rules, or faces that changed). */
  redrawn: number;
  siteRows: number;
  /** Files that could not be read, unknown fonts and items that failed; each also logged. */
  warnings: string[];
}

// Covers are drawn and encoded item by item; handing control back to the event loop in between
// keeps a server that seeds in the background responsive.
const yieldNow = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Seeds the site's own content from Markdown files and site.json: articles (news, baike, zixun),
 * albums, collections (heji) and cases, each with a cover drawn in one of its library fonts, and the
 * site-wide tables. Keyed by file name: a file whose row exists is left alone, so editors' changes
 * survive restarts and only new files are added. Purges the page cache when anything was added.
 */
export async function seedContent(options: SeedContentOptions = {}): Promise<SeedContentResult> {
  const db = options.db ?? (await configuredDb());
  const storage = options.storage ?? configuredStorage();
  const result: SeedContentResult = { added: {}, kept: 0, redrawn: 0, siteRows: 0, warnings: [] };
  const warn = (message: string) => {
    result.warnings.push(message);
    log().warn(message);
  };
  const ctx: SeedItemContext = { db, storage, warn, redrawn: () => result.redrawn++ };

  const { files, errors } = await readContentFiles(options.dir);
  for (const error of errors) warn(error);
  // Oldest first, so that serial ids follow publication order.
  files.sort((a, b) => (a.publishedAt?.getTime() ?? 0) - (b.publishedAt?.getTime() ?? 0));
  const total = files.length + 1;
  const sorts: Partial<Record<ContentKind, number>> = {};

  for (const [index, file] of files.entries()) {
    let outcome: ItemOutcome = 'kept';
    try {
      if (file.kind === 'album' || file.kind === 'heji' || file.kind === 'case') {
        // Later files list first: sort is "higher first" and files are read in date order.
        const sort = (sorts[file.kind] ?? 0) + 1;
        sorts[file.kind] = sort;
        outcome = file.kind === 'case' ? await seedCase(ctx, file, sort) : await seedFontGroup(ctx, file, sort);
      } else {
        outcome = await seedArticle(ctx, file);
      }
    } catch (error) {
      warn(
        `${file.kind}/${file.slug}.md could not be seeded: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (outcome === 'added') result.added[file.kind] = (result.added[file.kind] ?? 0) + 1;
    else result.kept++;
    if (outcome === 'redrawn') result.redrawn++;
    options.onProgress?.(index + 1, total);
    await yieldNow();
  }

  try {
    result.siteRows = await seedSiteTables(ctx, await readSiteData(options.dir), yieldNow);
  } catch (error) {
    warn(`site.json could not be seeded: ${error instanceof Error ? error.message : String(error)}`);
  }
  options.onProgress?.(total, total);

  const addedItems = Object.values(result.added).reduce((sum, n) => sum + n, 0);
  if (addedItems > 0 || result.siteRows > 0 || result.redrawn > 0) await contentChanged('all');
  return result;
}
