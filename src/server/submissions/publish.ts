import { like } from 'drizzle-orm';
import { SUBMISSION_LICENSES, type SubmissionDetail, type SubmissionLicense } from '../../contract/submissions.ts';
import { contentChanged } from '../content/changes.ts';
import { refreshSearchIndex } from '../content/search.ts';
import { db as configuredDb, type Db } from '../db/client.ts';
import { fontFamilies, type StoredFace } from '../db/schema/index.ts';
import type { CatalogueEntry } from '../db/seed/font-catalogue.ts';
import type { FontCategory, FontScript } from '../db/seed/font-dicts.ts';
import { type IndexedFace, saveFamily } from '../db/seed/font-index.ts';
import type { FontMetadata } from '../engine/metadata.ts';
import { childGno } from '../fonts/faces.ts';
import { ApiError, forbidden } from '../http/envelope.ts';
import { log } from '../log.ts';
import { storage } from '../storage/index.ts';
import { type Caller, findVisible } from './access.ts';
import { move } from './moves.ts';
import { activeFile, detailOf } from './views.ts';

// Publishing: an accepted submission with its final files becomes a library family, indexed the way
// seeded families are (font-index.ts saveFamily: family and faces in one transaction, coverage,
// licence), so the catalogue, previews, hosted CSS and downloads treat it like any other font. The
// designer is credited as the family's designer, and every page that lists fonts is purged.

/** A library gno from the font's Latin family name: 'Mo Xiang Hei' → 'mo-xiang-hei', unique in the library. */
async function freeGno(db: Db, family: string, uid: string): Promise<string> {
  const base =
    family
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 48) || `font-${uid.slice(0, 8)}`;
  const taken = new Set(
    (
      await db
        .select({ gno: fontFamilies.gno })
        .from(fontFamilies)
        .where(like(fontFamilies.gno, `${base}%`))
    ).map((row) => row.gno),
  );
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** The metadata font-index.ts reads from a face, rebuilt from what the check stored. */
function metadataOf(face: StoredFace, designer: string): FontMetadata {
  return {
    familyName: face.familyName,
    familyNameZhHans: undefined,
    familyNameZhHant: undefined,
    styleName: face.styleName,
    fullName: face.fullName,
    postscriptName: face.postscriptName,
    weight: face.weight,
    weightClass: face.weight,
    italic: face.italic,
    glyphCount: face.glyphCount,
    unitsPerEm: face.unitsPerEm,
    version: face.version,
    copyright: face.copyright ?? undefined,
    designer,
    manufacturer: undefined,
    licenseDescription: undefined,
    licenseUrl: undefined,
    coverage: face.coverage,
  };
}

function licenseStatement(fields: SubmissionDetail['fields'], packaged: string | null): string | undefined {
  if (packaged?.trim()) return packaged;
  if (fields.license === 'OFL-1.1') return undefined; // the OFL with the font's own copyright line
  const label = SUBMISSION_LICENSES[fields.license as SubmissionLicense] ?? fields.license;
  return `《${fields.fontName}》（${fields.nameEn}）由 ${fields.designer} 设计，经造字联盟审核收录。\n\n授权方式：${label}。\n\n使用前请阅读字体页面上的授权说明；如需超出以上范围的授权，请通过造字联盟联系作者。`;
}

/** Publishes a submission whose final files are in: it becomes a library family (editor role). */
export async function publishSubmission(caller: Caller, uid: string, database?: Db): Promise<SubmissionDetail> {
  if (!caller.reviewer) throw forbidden('只有审核员可以上架投稿');
  const db = database ?? (await configuredDb());
  const row = await findVisible(caller, uid, db);
  if (row.status !== 'finalized') {
    throw new ApiError(409, '409', '投稿还没有上传终稿，不能上架');
  }
  const final = await activeFile(db, row, 'final');
  if (final?.report?.kind !== 'font') throw new ApiError(409, '409', '终稿文件不存在，请让设计师重新上传');
  const detail = await detailOf(caller, row, db);
  // The library address comes from the font itself (submitting checked that the English name is the same).
  const family = final.report.faces[0]?.familyName ?? '';
  const gno = await freeGno(db, /[A-Za-z]/.test(family) ? family : row.nameEn, row.uid);
  const store = storage();
  const faces: IndexedFace[] = [];
  for (const face of final.report.faces) {
    const meta = metadataOf(face, row.designer);
    const fileKey = `fonts/${gno}/${(face.postscriptName || `face-${face.weight}`).replace(/[^A-Za-z0-9._-]/g, '-')}.${face.format}`;
    const object = await store.get(face.faceKey);
    if (!object) throw new ApiError(409, '409', '终稿文件已丢失，请让设计师重新上传');
    await store.put(fileKey, object.body);
    faces.push({
      gno: childGno(gno, meta),
      meta,
      weight: face.weight,
      italic: face.italic,
      fileKey,
      fileSize: face.faceSize,
      sha256: face.sha256,
    });
  }
  const entry: CatalogueEntry = {
    gno,
    nameZh: row.fontName,
    category: row.category as FontCategory,
    script: row.script as FontScript,
    license: row.license as CatalogueEntry['license'],
    foundry: row.designer,
    description: row.description,
    source: { kind: 'fixture', dir: `submission-${row.uid}` },
  };
  try {
    const moved = await move(
      caller,
      row,
      'publish',
      `已收录为字体库中的“${row.fontName}”。`,
      async (tx) => {
        await saveFamily(
          tx,
          store,
          entry,
          {
            sourcePackage: `submission:${row.uid}`,
            sourceVersion: final.report?.kind === 'font' ? (final.report.faces[0]?.version ?? '') : '',
          },
          {
            fonts: [],
            licenseText: licenseStatement(
              detail.fields,
              final.report?.kind === 'font' ? final.report.licenseText : null,
            ),
          },
          faces,
        );
        return { publishedGno: gno };
      },
      db,
    );
    await contentChanged('font');
    // Searched for at once by its designer and the reviewers: the index is rebuilt before answering.
    await refreshSearchIndex(db).catch((error: unknown) =>
      log().error({ err: error, gno }, 'search index not rebuilt after publishing'),
    );
    return detailOf(caller, moved, db);
  } catch (error) {
    await store.deleteTree(`fonts/${gno}`);
    throw error;
  }
}
