import { inArray } from 'drizzle-orm';
import { contentChanged } from '../../content/changes.ts';
import { env } from '../../env.ts';
import { log } from '../../log.ts';
import type { Storage } from '../../storage/index.ts';
import { db as configuredDb, type Db } from '../client.ts';
import { fontFamilies } from '../schema/index.ts';
import { type CatalogueEntry, libraryParts } from './font-catalogue.ts';
import { type SeedFontsResult, seedFonts } from './fonts.ts';

/** The seeding of the rest of the library while the server answers. */
export interface BackgroundSeeding {
  /** Settles when every family was tried (or the run was stopped), with what the run did. */
  done: Promise<SeedFontsResult>;
  /** Stops between fonts, takes back the family being indexed, and waits for that. */
  stop(): Promise<void>;
}

/** Options of seedLibraryInBackground; the defaults are the process's own. */
export interface BackgroundSeedingOptions {
  /** The families to seed now; defaults to the background part of FONT_SEED's catalogue. */
  catalogue?: readonly CatalogueEntry[];
  /** Every family of the library, for the count in the log; defaults to FONT_SEED's whole catalogue. */
  library?: readonly CatalogueEntry[];
  db?: Db;
  storage?: Storage;
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * Seeds the families left out before start, smallest first, while requests are served: each
 * family is written whole (files, then its rows in one transaction) and then shown at once,
 * since contentChanged('font') purges the cached font pages, answers and the search index. The
 * log gets a line per family; a family that fails is logged and left for the next start.
 */
export function seedLibraryInBackground(options: BackgroundSeedingOptions = {}): BackgroundSeeding {
  const controller = new AbortController();
  const done = run(options, controller.signal).catch((error: unknown) => {
    log().error({ err: error }, 'font library: background seeding stopped by an error');
    return { seeded: [], skipped: [], failed: [], downloadedBytes: 0 };
  });
  return {
    done,
    stop: async () => {
      controller.abort(new Error('the server is stopping'));
      await done;
    },
  };
}

async function run(options: BackgroundSeedingOptions, signal: AbortSignal): Promise<SeedFontsResult> {
  const source = env().FONT_SEED;
  const parts = source === 'none' ? { first: [], background: [] } : libraryParts(source);
  const catalogue = options.catalogue ?? parts.background;
  const library = options.library ?? [...parts.first, ...catalogue];
  if (catalogue.length === 0) return { seeded: [], skipped: [], failed: [], downloadedBytes: 0 };
  const database = options.db ?? (await configuredDb());
  const gnos = library.map((entry) => entry.gno);
  const inLibrary = async () =>
    (await database.select({ gno: fontFamilies.gno }).from(fontFamilies).where(inArray(fontFamilies.gno, gnos))).length;

  const started = Date.now();
  let bytes = { done: 0, total: 0 };
  const result = await seedFonts({
    source: source === 'fixtures' ? 'fixtures' : 'registry',
    catalogue,
    db: database,
    ...(options.storage ? { storage: options.storage } : {}),
    signal,
    onProgress: (report) => {
      bytes = { done: report.bytesDone, total: report.bytesTotal };
    },
    onFamilySeeded: async (gno) => {
      await contentChanged('font');
      const downloaded = bytes.total > 0 ? `, ${megabytes(bytes.done)} / ${megabytes(bytes.total)} downloaded` : '';
      log().info({ gno }, `font library: ${await inLibrary()}/${library.length} families${downloaded}`);
    },
  });
  if (signal.aborted) {
    log().info(
      `font library: stopped at ${await inLibrary()}/${library.length} families, the rest follow on the next start`,
    );
    return result;
  }
  if (result.seeded.length > 0 || result.failed.length > 0) {
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const failed =
      result.failed.length > 0
        ? `, ${result.failed.length} could not be seeded and are tried again on the next start (${result.failed.map((f) => f.gno).join(', ')})`
        : '';
    const level = result.failed.length > 0 ? 'warn' : 'info';
    log()[level](
      `font library: ${await inLibrary()}/${library.length} families, ${result.seeded.length} added in the background in ${seconds} s${failed}`,
    );
  }
  return result;
}
