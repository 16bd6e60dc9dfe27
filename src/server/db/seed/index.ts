import { env } from '../../env.ts';
import { log } from '../../log.ts';
import { seedFonts } from './fonts.ts';

/** Where seeding reports its progress (scripts/lib/progress.ts draws it). */
export interface SeedProgress {
  update(step: string, done: number, total: number, unit?: 'bytes' | 'items'): void;
  finish(message: string): void;
}

/**
 * Brings the database to a usable state on start: the font dictionary and the library fonts
 * (FONT_SEED). Every step is idempotent, so later starts only check and move on.
 */
export async function seedAll({ progress }: { progress: SeedProgress }): Promise<void> {
  const source = env().FONT_SEED;
  if (source === 'none') return;
  const started = Date.now();
  const result = await seedFonts({
    source,
    onProgress: (report) => {
      if (report.phase === 'download') {
        progress.update(`Downloading fonts (${report.gno})`, report.bytesDone, report.bytesTotal, 'bytes');
      } else {
        progress.update('Indexing fonts', report.familiesDone, report.familiesTotal);
      }
    },
  });
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
