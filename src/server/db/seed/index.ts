import { contentChanged } from '../../content/changes.ts';
import { env } from '../../env.ts';
import { log } from '../../log.ts';
import { database as configuredDatabase, type Database, type Db } from '../client.ts';
import { withSiteLock } from '../lock.ts';
import { seedContent } from './content-seed.ts';
import { seedFontDicts } from './font-dicts.ts';
import { seedFonts } from './fonts.ts';
import { catalogueOf, familiesPresent } from './library-plan.ts';
import { seedVideos } from './videos.ts';

/** Where seeding reports its progress (scripts/lib/progress.ts draws it). */
export interface SeedProgress {
  update(step: string, done: number, total: number, unit?: 'bytes' | 'items'): void;
  finish(message: string): void;
}

/** The site lock every pass of seeding takes, so that nodes starting together seed once. */
export const SEED_LOCK = 'seed';

/**
 * Brings the database to a usable state before the site answers, without waiting for a download:
 * the font dictionary, the fixture fonts when FONT_SEED=fixtures (local files), the site's videos and
 * tables, and every article, album and case whose fonts are in the library. Items waiting for a family
 * of the library are added by seedLibraryInBackground as their families arrive. Runs under a site
 * lock, so that of nodes started together one seeds and the others find it done; every step is
 * idempotent by unique keys, so later starts only check and move on.
 */
export async function seedBeforeServing({
  progress,
  database,
}: {
  progress: SeedProgress;
  database?: Database;
}): Promise<void> {
  const source = env().FONT_SEED;
  if (source === 'none') return;
  const opened = database ?? (await configuredDatabase());
  await withSiteLock(opened.locks, SEED_LOCK, async () => {
    await seedFontDicts(opened.db);
    if (source === 'fixtures') await seedFixtureFonts(progress, opened);
    // Registry families arrive in the background; items drawn in them wait for them.
    const catalogue = catalogueOf(source);
    const present = await familiesPresent(opened.db, catalogue);
    const awaited = new Set(
      source === 'registry' ? catalogue.filter((entry) => !present.has(entry.gno)).map((entry) => entry.gno) : [],
    );
    await seedSiteContent(progress, opened.db, awaited);
  });
}

async function seedFixtureFonts(progress: SeedProgress, opened: Database): Promise<void> {
  const started = Date.now();
  const result = await seedFonts({
    source: 'fixtures',
    db: opened.db,
    onProgress: (report) => progress.update('Indexing fonts', report.familiesDone, report.familiesTotal),
  });
  // Font pages and answers kept from an earlier run do not show the families added now.
  if (result.seeded.length > 0) await contentChanged('font');
  for (const failure of result.failed)
    log().error({ gno: failure.gno, error: failure.error }, 'font family not seeded');
  if (result.seeded.length > 0 || result.failed.length > 0) {
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const failed = result.failed.length > 0 ? `, ${result.failed.length} failed (see the log)` : '';
    progress.finish(
      `Fonts: ${result.seeded.length} families added in ${seconds} s, ${result.skipped.length} already there${failed}`,
    );
  }
}

/**
 * Seeds the site's content and videos; items waiting for one of `awaited` are left for later.
 * Answers the families the waiting items wait for.
 */
export async function seedSiteContent(
  progress: SeedProgress,
  db: Db,
  awaited: ReadonlySet<string>,
  { dir, signal, redraw = true }: { dir?: string | undefined; signal?: AbortSignal; redraw?: boolean } = {},
): Promise<Set<string>> {
  const started = Date.now();
  const result = await seedContent({
    db,
    redraw,
    ...(dir ? { dir } : {}),
    ...(signal ? { signal } : {}),
    awaitedFamilies: awaited,
    onProgress: (done, total) => progress.update('Seeding content', done, total),
  });
  if (signal?.aborted) return new Set();
  const videosAdded = await seedVideos(db);
  const added = Object.entries({ ...result.added, ...(videosAdded ? { videos: videosAdded } : {}) }).map(
    ([kind, n]) => `${n} ${kind}`,
  );
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const warnings = result.warnings.length > 0 ? `, ${result.warnings.length} warnings (see the log)` : '';
  const waitingFor = new Set(result.waiting.flatMap((item) => item.families));
  const waiting =
    result.waiting.length > 0
      ? `; ${result.waiting.length} wait for their fonts (${[...waitingFor].join(', ')}), added as they arrive`
      : '';
  const redrawn = result.redrawn > 0 ? `, ${result.redrawn} covers drawn again` : '';
  // Always finished, so that the progress line drawn on a terminal is cleared.
  progress.finish(
    added.length > 0 || result.siteRows > 0
      ? `Content: ${added.join(', ') || 'no items'} and ${result.siteRows} site rows added in ${seconds} s${redrawn}${warnings}${waiting}`
      : `Content: up to date (${result.kept} items)${redrawn}${warnings}${waiting}`,
  );
  return waitingFor;
}
