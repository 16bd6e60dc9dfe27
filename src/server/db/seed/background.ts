import { setTimeout as sleep } from 'node:timers/promises';
import { contentChanged } from '../../content/changes.ts';
import { coverFontCandidates } from '../../content/covers.ts';
import { env } from '../../env.ts';
import { log } from '../../log.ts';
import type { Storage } from '../../storage/index.ts';
import { database as configuredDatabase, type Db } from '../client.ts';
import { type SiteLocks, withSiteLock } from '../lock.ts';
import { readContentFiles } from './content-files.ts';
import type { CatalogueEntry } from './font-catalogue.ts';
import { type SeedFontsResult, seedFonts, sizeOf } from './fonts.ts';
import { SEED_LOCK, seedSiteContent } from './index.ts';
import { catalogueOf, familiesPresent, seedingOrder } from './library-plan.ts';

/** The seeding of the rest of the library while the server answers. */
export interface BackgroundSeeding {
  /** Settles when every family was tried (or the run was stopped), with what the run did. */
  done: Promise<SeedFontsResult>;
  /** Stops between fonts, takes back the family being indexed, and waits for that. */
  stop(): Promise<void>;
}

/** Options of seedLibraryInBackground; the defaults are the process's own. */
export interface BackgroundSeedingOptions {
  /** The families to seed now; defaults to FONT_SEED's whole catalogue (those already there are skipped). */
  catalogue?: readonly CatalogueEntry[];
  /** Every family of the library, for the count in the log; defaults to FONT_SEED's whole catalogue. */
  library?: readonly CatalogueEntry[];
  db?: Db;
  storage?: Storage;
  locks?: SiteLocks;
  /** Where the site's content files are (their fonts come first, their items follow them). */
  contentDir?: string;
  /** How long a node waits before it looks again whether the node seeding the library is still there. */
  watchMs?: number;
  /** How long after the registry could not be reached it is tried again. */
  retryMs?: number;
}

/** The site lock the node that seeds the library holds for as long as it does. */
export const LIBRARY_LOCK = 'font-library';

const WATCH_MS = 30_000;
const RETRY_MS = 10 * 60_000;
const PROGRESS_LOG_MS = 15_000;
const NOTHING: SeedFontsResult = { seeded: [], skipped: [], failed: [], downloadedBytes: 0 };

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * Seeds the library's families once the server answers: first those the site's articles, albums and
 * cases use, each followed at once by the items that waited for it, then the others smallest first.
 * Each family is written whole (files, then its rows in one transaction) and then shown at once,
 * since contentChanged('font') purges the cached font pages, answers and the search index on every
 * node. One node of the site does this at a time, holding a site lock: the others look every half
 * minute and take over if it stops. The log gets a line per family and the download's progress; a
 * family that fails is logged and left for the next start; when the registry cannot be reached at
 * all, the log says which families are missing and the run is tried again ten minutes later.
 */
export function seedLibraryInBackground(options: BackgroundSeedingOptions = {}): BackgroundSeeding {
  const controller = new AbortController();
  const done = keepLibrary(options, controller.signal).catch((error: unknown) => {
    if (!controller.signal.aborted) log().error({ err: error }, 'font library: background seeding stopped by an error');
    return NOTHING;
  });
  return {
    done,
    stop: async () => {
      controller.abort(new Error('the server is stopping'));
      await done;
    },
  };
}

async function keepLibrary(options: BackgroundSeedingOptions, signal: AbortSignal): Promise<SeedFontsResult> {
  const source = env().FONT_SEED;
  // The fixture families are local files, seeded before the site answers.
  if (source !== 'registry' && !options.catalogue) return NOTHING;
  const library = options.library ?? catalogueOf(source);
  const catalogue = options.catalogue ?? library;
  if (catalogue.length === 0) return NOTHING;
  const { db, locks } = await databaseOf(options);
  let watching = false;
  for (;;) {
    const lock = await locks.tryAcquire(LIBRARY_LOCK);
    if (lock) {
      let result: SeedFontsResult;
      try {
        result = await seedPass({ ...options, catalogue, library, db, locks }, signal);
      } finally {
        await lock.release();
      }
      if (signal.aborted || !result.unreachable) return result;
      await sleep(options.retryMs ?? RETRY_MS, undefined, { signal, ref: false });
      continue;
    }
    const present = await familiesPresent(db, library);
    if (present.size === library.length) return NOTHING;
    if (!watching) {
      watching = true;
      log().info(
        `font library: ${present.size}/${library.length} families; another node of the site adds the others, and this one shows each as it arrives`,
      );
    }
    await sleep(options.watchMs ?? WATCH_MS, undefined, { signal, ref: false });
  }
}

async function databaseOf(options: BackgroundSeedingOptions): Promise<{ db: Db; locks: SiteLocks }> {
  if (options.db && options.locks) return { db: options.db, locks: options.locks };
  const opened = await configuredDatabase();
  return { db: options.db ?? opened.db, locks: options.locks ?? opened.locks };
}

interface PassOptions extends BackgroundSeedingOptions {
  catalogue: readonly CatalogueEntry[];
  library: readonly CatalogueEntry[];
  db: Db;
  locks: SiteLocks;
}

async function seedPass(options: PassOptions, signal: AbortSignal): Promise<SeedFontsResult> {
  const { db, library, locks } = options;
  const source = env().FONT_SEED;
  const present = await familiesPresent(db, library);
  const inLibrary = async () => (await familiesPresent(db, library)).size;
  const { files } = await readContentFiles(options.contentDir);
  // The families the items are drawn in: named by them, or their covers' defaults.
  const named = new Set(files.flatMap((file) => coverFontCandidates(file.kind, file.fonts)));
  const order = seedingOrder(options.catalogue, files);
  const missing = order.filter((entry) => !present.has(entry.gno));
  if (missing.length > 0) {
    const first = missing.filter((entry) => named.has(entry.gno)).length;
    const bytes = missing.reduce((sum, entry) => sum + sizeOf(entry), 0);
    log().info(
      `font library: ${present.size}/${library.length} families; adding ${missing.length} (${megabytes(bytes)} of packages) in the background${first > 0 ? `, first the ${first} the site's articles use` : ''}`,
    );
  }

  // Items that waited for a family are added as soon as it is there.
  const addWaitingContent = () =>
    withSiteLock(locks, SEED_LOCK, async () => {
      const now = await familiesPresent(db, library);
      const awaited = new Set(library.filter((entry) => !now.has(entry.gno)).map((entry) => entry.gno));
      return seedSiteContent(
        { update: () => {}, finish: (message) => log().info(`font library: ${message}`) },
        db,
        awaited,
        // Only what waited: kept covers were looked at when the node started.
        { dir: options.contentDir, signal, redraw: false },
      );
    });

  // A node that takes over from one that stopped adds what waited for the families that one added.
  await addWaitingContent();
  const started = Date.now();
  let bytes = { done: 0, total: 0 };
  let lastProgressLog = Date.now();
  const result = await seedFonts({
    source: source === 'fixtures' ? 'fixtures' : 'registry',
    catalogue: order,
    db,
    ...(options.storage ? { storage: options.storage } : {}),
    signal,
    onProgress: (report) => {
      bytes = { done: report.bytesDone, total: report.bytesTotal };
      const downloading = report.phase === 'download' && report.bytesDone < report.bytesTotal;
      if (downloading && Date.now() - lastProgressLog >= PROGRESS_LOG_MS) {
        lastProgressLog = Date.now();
        log().info(`font library: downloading ${report.gno}, ${megabytes(bytes.done)} / ${megabytes(bytes.total)}`);
      }
    },
    onFamilySeeded: async (gno) => {
      await contentChanged('font');
      const downloaded = bytes.total > 0 ? `, ${megabytes(bytes.done)} / ${megabytes(bytes.total)} downloaded` : '';
      log().info({ gno }, `font library: ${await inLibrary()}/${library.length} families${downloaded}`);
      if (named.has(gno)) await addWaitingContent();
    },
  });
  if (signal.aborted) {
    log().info(
      `font library: stopped at ${await inLibrary()}/${library.length} families, the rest follow on the next start`,
    );
    return result;
  }
  const have = await inLibrary();
  if (result.unreachable) {
    const lacking = library.filter((entry) => !result.seeded.includes(entry.gno) && !present.has(entry.gno));
    const waiting = await addWaitingContent();
    log().warn(
      `font library: the registry cannot be reached: ${result.unreachable}. Serving the ${have}/${library.length} families here; ` +
        `missing ${lacking.length} (${lacking.map((entry) => entry.gno).join(', ')})` +
        `${waiting.size > 0 ? `, for which some articles, albums and cases wait` : ''}; ` +
        `trying again in ${Math.round((options.retryMs ?? RETRY_MS) / 60_000)} minutes`,
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
      `font library: ${have}/${library.length} families, ${result.seeded.length} added in the background in ${seconds} s${failed}`,
    );
  }
  return result;
}
