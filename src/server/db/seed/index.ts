import { contentChanged } from '../../content/changes.ts';
import { env } from '../../env.ts';
import { log } from '../../log.ts';
import { seedContent } from './content-seed.ts';
import { libraryParts } from './font-catalogue.ts';
import { seedFonts } from './fonts.ts';
import { seedVideos } from './videos.ts';

/** Where seeding reports its progress (scripts/lib/progress.ts draws it). */
export interface SeedProgress {
  update(step: string, done: number, total: number, unit?: 'bytes' | 'items'): void;
  finish(message: string): void;
}

/**
 * Brings the database to a usable state on start: the font dictionary and the library's first
 * families (FONT_SEED), then the site's own content (articles, albums, cases, site tables). The
 * rest of the library follows once the server answers (seedLibraryInBackground). Every step is
 * idempotent, so later starts only check and move on.
 */
export async function seedAll({ progress }: { progress: SeedProgress }): Promise<void> {
  const source = env().FONT_SEED;
  if (source === 'none') return;
  const started = Date.now();
  const result = await seedFonts({
    source,
    catalogue: libraryParts(source).first,
    onProgress: (report) => {
      if (report.phase === 'download') {
        progress.update(`Downloading fonts (${report.gno})`, report.bytesDone, report.bytesTotal, 'bytes');
      } else {
        progress.update('Indexing fonts', report.familiesDone, report.familiesTotal);
      }
    },
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
  await seedSiteContent(progress);
}

async function seedSiteContent(progress: SeedProgress): Promise<void> {
  const started = Date.now();
  const result = await seedContent({ onProgress: (done, total) => progress.update('Seeding content', done, total) });
  const videosAdded = await seedVideos();
  const added = Object.entries({ ...result.added, ...(videosAdded ? { videos: videosAdded } : {}) }).map(
    ([kind, n]) => `${n} ${kind}`,
  );
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const warnings = result.warnings.length > 0 ? `, ${result.warnings.length} warnings (see the log)` : '';
  const redrawn = result.redrawn > 0 ? `, ${result.redrawn} covers drawn again` : '';
  // Always finished, so that the progress line drawn on a terminal is cleared.
  progress.finish(
    added.length > 0 || result.siteRows > 0
      ? `Content: ${added.join(', ') || 'no items'} and ${result.siteRows} site rows added in ${seconds} s${redrawn}${warnings}`
      : `Content: up to date (${result.kept} items)${redrawn}${warnings}`,
  );
}
