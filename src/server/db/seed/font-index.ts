import fsp from 'node:fs/promises';
import path from 'node:path';
import { and, eq, inArray, notInArray } from 'drizzle-orm';
import { oflText } from '../../engine/data-files.ts';
import type { FontMetadata } from '../../engine/metadata.ts';
import { storeCodePoints } from '../../fonts/cmap-cache.ts';
import { childGno, pickDefaultFace } from '../../fonts/faces.ts';
import { storeCrc32 } from '../../fonts/stored-zip.ts';
import type { Storage } from '../../storage/index.ts';
import type { Db } from '../client.ts';
import { fontFamilies, fonts } from '../schema/index.ts';
import type { CatalogueEntry } from './font-catalogue.ts';
import { categoryNumber, scriptNumber } from './font-dicts.ts';
import type { FamilyFiles } from './font-sources.ts';
import type { SeedThread } from './off-thread.ts';

/** One indexed font file: what it says about itself and where it is stored. */
export interface IndexedFace {
  gno: string;
  meta: FontMetadata;
  weight: number;
  italic: boolean;
  fileKey: string;
  fileSize: number;
  sha256: string;
}

/** Where a family's files came from, recorded so that a later run can tell it is up to date. */
export interface SourceStamp {
  sourcePackage: string;
  sourceVersion: string;
}

// The GPL with the font exception lets anyone set and print commercial work in the font and embed
// it in the PDFs they sell; only the font files themselves stay under the GPL.
const FREE_FOR_COMMERCIAL_USE = new Set([
  'OFL-1.1',
  'Apache-2.0',
  'GPL-2.0-or-later-font-exception',
  'free-commercial',
]);

/** A storage-safe file name: the characters storage keys allow, everything else as '-'. */
function safeFileName(file: string): string {
  return path
    .basename(file)
    .replace(/[^A-Za-z0-9._-]/g, '-')
    .replace(/^[.]+/, '');
}

/**
 * Reads each font of a family one at a time (described and hashed in the seed worker, then stored),
 * so that requests keep being answered while a large family is indexed. Each key
 * stored is added to `stored` as it is written, so that a caller can take the files back when
 * the family fails; `signal` stops between fonts.
 */
export async function indexFaces(
  entry: CatalogueEntry,
  files: FamilyFiles,
  store: Storage,
  worker: SeedThread,
  { stored = [], signal }: { stored?: string[]; signal?: AbortSignal | undefined } = {},
): Promise<IndexedFace[]> {
  const faces: IndexedFace[] = [];
  for (const file of files.fonts) {
    signal?.throwIfAborted();
    const { meta, sha256, codePoints, crc32 } = await worker.describe(file);
    const gno = childGno(entry.gno, meta);
    const twin = faces.find((face) => face.gno === gno);
    if (twin) throw new Error(`${path.basename(file)} has the same weight and style as ${twin.fileKey} (${gno})`);
    const fileKey = `fonts/${entry.gno}/${safeFileName(file)}`;
    const bytes = new Uint8Array(await fsp.readFile(file));
    stored.push(fileKey);
    await store.put(fileKey, bytes);
    // The glyph browser and the coverage index read this instead of parsing the font again.
    await storeCodePoints(store, sha256, codePoints);
    // Zips of the family are laid out before they are sent, so their size is known (stored-zip.ts).
    await storeCrc32(store, sha256, crc32);
    faces.push({ gno, meta, weight: meta.weight, italic: meta.italic, fileKey, fileSize: bytes.length, sha256 });
  }
  if (faces.length === 0) throw new Error(`No TTF files found for ${entry.gno}`);
  return faces;
}

/** The licence to keep with a family: the shipped file, else the OFL with the font's own copyright line. */
function licenseTextFor(entry: CatalogueEntry, files: FamilyFiles, face: IndexedFace): string {
  if (files.licenseText?.trim()) return files.licenseText;
  if (entry.license !== 'OFL-1.1') throw new Error(`${entry.gno} ships no licence file`);
  const copyright = face.meta.copyright ?? `Copyright the ${face.meta.familyName} Project Authors`;
  return `${copyright}\n\n${oflText()}`;
}

function coverageOf(meta: FontMetadata) {
  return {
    coverageGb2312: meta.coverage.gb2312,
    coverageTongyong: meta.coverage.tongyong,
    coverageBig5: meta.coverage.big5,
    coverageLatin: meta.coverage.latin,
  };
}

/**
 * Writes a family and its child fonts in one transaction (insert or update by gno), removes
 * child fonts the new files no longer have, then deletes those fonts' stored files.
 */
export async function saveFamily(
  db: Db,
  store: Storage,
  entry: CatalogueEntry,
  stamp: SourceStamp,
  files: FamilyFiles,
  faces: IndexedFace[],
): Promise<void> {
  const main = pickDefaultFace(faces);
  if (!main) throw new Error(`No fonts for ${entry.gno}`);
  const family = {
    gno: entry.gno,
    nameZh: entry.nameZh,
    nameEn: main.meta.familyName,
    category: categoryNumber(entry.category),
    script: scriptNumber(entry.script),
    license: entry.license,
    licenseText: licenseTextFor(entry, files, main),
    commercialFree: FREE_FOR_COMMERCIAL_USE.has(entry.license),
    designer: main.meta.designer ?? null,
    foundry: entry.foundry,
    description: entry.description,
    ...stamp,
    glyphCount: main.meta.glyphCount,
    ...coverageOf(main.meta),
  };

  const staleKeys = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(fontFamilies)
      .values(family)
      .onConflictDoUpdate({ target: fontFamilies.gno, set: { ...family, updatedAt: new Date() } })
      .returning({ id: fontFamilies.id });
    if (!row) throw new Error(`Could not save family ${entry.gno}`);
    for (const face of faces) {
      const values = {
        familyId: row.id,
        gno: face.gno,
        fullName: face.meta.fullName,
        styleName: face.meta.styleName,
        postscriptName: face.meta.postscriptName,
        weight: face.weight,
        italic: face.italic,
        fileKey: face.fileKey,
        fileSize: face.fileSize,
        sha256: face.sha256,
        glyphCount: face.meta.glyphCount,
        ...coverageOf(face.meta),
        version: face.meta.version,
      };
      await tx.insert(fonts).values(values).onConflictDoUpdate({ target: fonts.gno, set: values });
    }
    const keep = faces.map((face) => face.gno);
    const stale = await tx
      .select({ id: fonts.id, fileKey: fonts.fileKey })
      .from(fonts)
      .where(and(eq(fonts.familyId, row.id), notInArray(fonts.gno, keep)));
    if (stale.length > 0) {
      await tx.delete(fonts).where(
        inArray(
          fonts.id,
          stale.map((font) => font.id),
        ),
      );
    }
    const keptKeys = new Set(faces.map((face) => face.fileKey));
    return stale.map((font) => font.fileKey).filter((key) => !keptKeys.has(key));
  });
  for (const key of staleKeys) await store.delete(key);
}

/**
 * Deletes the stored files that no font row names: what a family that failed before its rows were
 * written had put. Files of an earlier version that rows still name are kept.
 */
export async function discardUnsavedFiles(db: Db, store: Storage, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  const named = await db
    .select({ fileKey: fonts.fileKey })
    .from(fonts)
    .where(inArray(fonts.fileKey, [...keys]));
  const keep = new Set(named.map((row) => row.fileKey));
  for (const key of keys) if (!keep.has(key)) await store.delete(key);
}

/**
 * Answers whether a family is already seeded from the same source and every one of its files
 * is in storage with the recorded size; such a family needs no download and no work.
 */
export async function isFamilySeeded(db: Db, store: Storage, gno: string, stamp: SourceStamp): Promise<boolean> {
  const [family] = await db
    .select({
      id: fontFamilies.id,
      sourcePackage: fontFamilies.sourcePackage,
      sourceVersion: fontFamilies.sourceVersion,
    })
    .from(fontFamilies)
    .where(eq(fontFamilies.gno, gno));
  if (!family || family.sourcePackage !== stamp.sourcePackage || family.sourceVersion !== stamp.sourceVersion) {
    return false;
  }
  const children = await db
    .select({ fileKey: fonts.fileKey, fileSize: fonts.fileSize })
    .from(fonts)
    .where(eq(fonts.familyId, family.id));
  if (children.length === 0) return false;
  for (const child of children) {
    const stat = await store.stat(child.fileKey);
    if (stat?.size !== child.fileSize) return false;
  }
  return true;
}
