import { createHash, randomUUID } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { env } from '../../env.ts';
import { log } from '../../log.ts';
import { storage as configuredStorage, type Storage } from '../../storage/index.ts';
import { db as configuredDb, type Db } from '../client.ts';
import { debCachePath, ensureDeb, extractDebianFiles } from './debian-package.ts';
import { type CatalogueEntry, FIXTURE_CATALOGUE, FONT_CATALOGUE } from './font-catalogue.ts';
import { seedFontDicts } from './font-dicts.ts';
import { discardUnsavedFiles, indexFaces, isFamilySeeded, type SourceStamp, saveFamily } from './font-index.ts';
import {
  ensureTarball,
  type FamilyFiles,
  RegistryUnreachableError,
  readFixtureFiles,
  rebuildSlicedFiles,
  tarballCachePath,
} from './font-sources.ts';
import { SeedThread } from './off-thread.ts';

/** A progress report: download bytes and families done, both across the whole run. */
export interface SeedFontsProgress {
  phase: 'download' | 'index';
  /** The family being worked on. */
  gno: string;
  bytesDone: number;
  bytesTotal: number;
  familiesDone: number;
  familiesTotal: number;
}

/** Options of seedFonts; only `source` is required. */
export interface SeedFontsOptions {
  /** 'registry' downloads the catalogue's npm packages; 'fixtures' reads tests/fixtures/fonts/ (no network). */
  source: 'registry' | 'fixtures';
  onProgress?: (progress: SeedFontsProgress) => void;
  /** Defaults to the process database. */
  db?: Db;
  /** Defaults to the configured storage. */
  storage?: Storage;
  /** The families to seed, in this order; defaults to FONT_CATALOGUE or FIXTURE_CATALOGUE according to `source`. */
  catalogue?: readonly CatalogueEntry[];
  /** Defaults to tests/fixtures/fonts under the working directory. */
  fixturesDir?: string;
  /** Hears each family once its rows are written (to show it at once); awaited before the next one. */
  onFamilySeeded?: (gno: string) => Promise<void> | void;
  /** Ends the run between fonts: the family being indexed is taken back, the rest are left for later. */
  signal?: AbortSignal;
}

/** What a run did; a family that failed is reported, not thrown, so the others still get seeded. */
export interface SeedFontsResult {
  seeded: string[];
  skipped: string[];
  failed: Array<{ gno: string; error: string }>;
  downloadedBytes: number;
  /** Why the run stopped early when the registry could not be reached at all; the rest were not tried. */
  unreachable?: string;
}

const PROGRESS_INTERVAL_MS = 100;

/** A family's package size in bytes (0 for a fixture folder). */
export function sizeOf(entry: CatalogueEntry): number {
  return entry.source.kind === 'fixture' ? 0 : entry.source.size;
}

async function fixtureStamp(dir: string): Promise<SourceStamp> {
  // Fixture folders have no version: the hash of their files stands for one.
  const files = await readFixtureFiles(dir);
  const hash = createHash('sha256');
  for (const file of files.fonts) hash.update(path.basename(file)).update(await fsp.readFile(file));
  hash.update(files.licenseText ?? '');
  return {
    sourcePackage: `fixtures/${path.basename(dir)}`,
    sourceVersion: `sha256-${hash.digest('hex').slice(0, 16)}`,
  };
}

async function stampOf(entry: CatalogueEntry, fixturesDir: string): Promise<SourceStamp> {
  const { source } = entry;
  if (source.kind === 'debian') return { sourcePackage: `debian/${source.package}`, sourceVersion: source.version };
  if (source.kind !== 'fixture') {
    const name = source.scope ? `${source.scope}/${source.name}` : source.name;
    return { sourcePackage: name, sourceVersion: source.version };
  }
  return fixtureStamp(path.join(fixturesDir, source.dir));
}

async function needsDownload(entry: CatalogueEntry, cacheDir: string): Promise<boolean> {
  const { source } = entry;
  if (source.kind === 'fixture') return false;
  const file = source.kind === 'debian' ? debCachePath(cacheDir, source) : tarballCachePath(cacheDir, source);
  const stat = await fsp.stat(file).catch(() => undefined);
  return stat?.size !== source.size;
}

/**
 * Seeds the font library: the font dictionary, then every catalogue family in the order given. For
 * the registry, each package's tarball is fetched into `${DATA_DIR}/cache/npm` (reused while its
 * integrity matches), its TTFs and LICENSE_FONT are unpacked, each font is read and stored under
 * `fonts/<gno>/`, and the rows are written. Families already seeded from the same source with
 * their files in storage are skipped, so a second run downloads and changes nothing.
 */
export async function seedFonts(options: SeedFontsOptions): Promise<SeedFontsResult> {
  const config = env();
  const database = options.db ?? (await configuredDb());
  const store = options.storage ?? configuredStorage();
  const fixturesDir = path.resolve(options.fixturesDir ?? 'tests/fixtures/fonts');
  const cacheDir = path.join(config.dataDir, 'cache', 'npm');
  const catalogue = options.catalogue ?? (options.source === 'registry' ? FONT_CATALOGUE : FIXTURE_CATALOGUE);

  await seedFontDicts(database);

  const result: SeedFontsResult = { seeded: [], skipped: [], failed: [], downloadedBytes: 0 };
  const pending: Array<{ entry: CatalogueEntry; stamp: SourceStamp }> = [];
  let bytesTotal = 0;
  for (const entry of catalogue) {
    const stamp = await stampOf(entry, fixturesDir);
    if (await isFamilySeeded(database, store, entry.gno, stamp)) {
      result.skipped.push(entry.gno);
      continue;
    }
    pending.push({ entry, stamp });
    if (await needsDownload(entry, cacheDir)) bytesTotal += sizeOf(entry);
  }

  const progress: SeedFontsProgress = {
    phase: 'index',
    gno: '',
    bytesDone: 0,
    bytesTotal,
    familiesDone: 0,
    familiesTotal: pending.length,
  };
  let lastReport = 0;
  const report = (force = false) => {
    const now = Date.now();
    if (!force && now - lastReport < PROGRESS_INTERVAL_MS) return;
    lastReport = now;
    options.onProgress?.({ ...progress });
  };

  // Started only when a family is to be seeded: a start with the library in place needs none.
  if (pending.length === 0) return result;
  const worker = new SeedThread();
  try {
    for (const { entry, stamp } of pending) {
      if (options.signal?.aborted) break;
      // Once the registry cannot be reached, only families already in the download cache are seeded
      // (the Debian mirror is another server: its families are still tried).
      if (result.unreachable && entry.source.kind !== 'debian' && (await needsDownload(entry, cacheDir))) {
        result.failed.push({ gno: entry.gno, error: `not tried: ${result.unreachable}` });
        progress.familiesDone++;
        continue;
      }
      const started = performance.now();
      const stored: string[] = [];
      const workDir = path.join(config.dataDir, 'cache', 'tmp', `${entry.gno}-${randomUUID()}`);
      progress.gno = entry.gno;
      try {
        let files: FamilyFiles;
        if (entry.source.kind !== 'fixture') {
          const source = entry.source;
          progress.phase = 'download';
          report(true);
          const download = {
            cacheDir,
            signal: options.signal,
            onBytes: (n: number) => {
              progress.bytesDone += n;
              // A cached copy that looked whole but failed its check is downloaded after all.
              progress.bytesTotal = Math.max(progress.bytesTotal, progress.bytesDone);
              result.downloadedBytes += n;
              report();
            },
          };
          const { file, downloaded } =
            source.kind === 'debian'
              ? await ensureDeb({ ...download, source, mirror: config.DEBIAN_MIRROR })
              : await ensureTarball({ ...download, source, registry: config.NPM_REGISTRY });
          if (downloaded) log().debug({ gno: entry.gno, bytes: source.size }, 'font package downloaded');
          progress.phase = 'index';
          report(true);
          files =
            source.kind === 'sliced'
              ? await rebuildSlicedFiles(file, workDir, source, options.signal)
              : source.kind === 'debian'
                ? await extractDebianFiles(file, workDir, source)
                : await worker.extract(file, workDir);
        } else {
          report(true);
          files = await readFixtureFiles(path.join(fixturesDir, entry.source.dir));
        }
        const faces = await indexFaces(entry, files, store, worker, { stored, signal: options.signal });
        await saveFamily(database, store, entry, stamp, files, faces);
        stored.length = 0;
        result.seeded.push(entry.gno);
        log().debug(
          { gno: entry.gno, fonts: faces.length, ms: Math.round(performance.now() - started) },
          'font family seeded',
        );
      } catch (error) {
        // Files stored before the failure would outlive the family that never got its rows.
        await discardUnsavedFiles(database, store, stored).catch((cleanup: unknown) =>
          log().error({ gno: entry.gno, err: cleanup }, 'files of a font family not seeded could not be removed'),
        );
        if (options.signal?.aborted) break;
        const message = error instanceof Error ? error.message : String(error);
        result.failed.push({ gno: entry.gno, error: message });
        // An unreachable Debian mirror fails its family alone; the npm registry serves all the others.
        if (error instanceof RegistryUnreachableError && entry.source.kind !== 'debian') result.unreachable = message;
        else log().warn({ gno: entry.gno, err: error }, 'font family could not be seeded');
      } finally {
        await fsp.rm(workDir, { recursive: true, force: true });
        progress.familiesDone++;
        report(true);
      }
      if (result.seeded.at(-1) === entry.gno) await options.onFamilySeeded?.(entry.gno);
    }
  } finally {
    await worker.close();
  }
  return result;
}
