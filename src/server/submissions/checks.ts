import { createHash } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import { SUBMISSION_MAX_FACES } from '../../contract/submissions.ts';
import type { StoredFace } from '../db/schema/index.ts';
import { compareFaces, type FaceComparison } from '../engine/design-compare.ts';
import { checkFont } from '../engine/font-check.ts';
import { FontInputError } from '../engine/font-errors.ts';
import { openFontPackage } from '../engine/font-package.ts';
import { readFontMetadata } from '../engine/metadata.ts';
import { FLAVOR_CFF, readSfnt } from '../engine/sfnt.ts';
import { drawSpecimen } from '../engine/specimen.ts';
import { storage } from '../storage/index.ts';

// The server's check of a submitted font, after the browser has put it in storage: a font (or a
// zip of weights) is opened, each face passes the rules browsers' sanitizer (OTS) applies, its
// names, weight and coverage are read, and a specimen is drawn. It runs in a tools worker (task
// 'submissionFont'), since parsing a CJK face takes longer than the event loop may wait.

/** What the font check is given: the uploaded object and where to write what it makes. */
export interface SubmissionFontTask {
  key: string;
  name: string;
  outPrefix: string;
  maxFontBytes: number;
}

export type { FaceComparison };

/** Two stored faces to compare: the one reviewed and the final one of the same weight. */
export interface DesignCompareTask {
  reviewedKey: string;
  finalKey: string;
}

/** What the font check found. */
export interface SubmissionFontResult {
  faces: StoredFace[];
  licenseText: string | null;
}

/** Opens, checks and describes every face of an uploaded font or zip (run in a tools worker). */
export async function checkSubmissionFont(task: SubmissionFontTask): Promise<SubmissionFontResult> {
  const object = await storage().get(task.key);
  if (!object) throw new FontInputError('truncated', `missing ${task.key}`, '上传的文件不存在或已过期，请重新上传');
  const bytes = new Uint8Array(await buffer(object.body));
  const opened = await openFontPackage(bytes, task.name, {
    maxFonts: SUBMISSION_MAX_FACES,
    maxFontBytes: task.maxFontBytes,
    maxTotalBytes: task.maxFontBytes * 4,
  });
  const faces: StoredFace[] = [];
  for (const [i, font] of opened.fonts.entries()) {
    try {
      checkFont(font.sfnt);
    } catch (error) {
      if (error instanceof FontInputError && opened.fonts.length > 1) {
        throw new FontInputError(error.problem, error.detail, `“${font.name}”：${error.message}`);
      }
      throw error;
    }
    const meta = readFontMetadata(font.sfnt);
    const twin = faces.find((face) => face.weight === meta.weight && face.italic === meta.italic);
    if (twin) {
      throw new FontInputError(
        'corrupt',
        'duplicate face',
        `“${font.name}”与“${twin.fullName}”的字重和样式相同，每个字重只需一个文件`,
      );
    }
    if (faces[0] && faces[0].familyName !== meta.familyName) {
      throw new FontInputError(
        'corrupt',
        'mixed families',
        `压缩包里的字体不属于同一个家族（“${faces[0].familyName}”和“${meta.familyName}”），请分开投稿`,
      );
    }
    const format = readSfnt(font.sfnt).flavor === FLAVOR_CFF ? 'otf' : 'ttf';
    const faceKey = `${task.outPrefix}/face-${i}.${format}`;
    const specimenKey = `${task.outPrefix}/specimen-${i}.png`;
    await storage().put(faceKey, font.sfnt);
    await storage().put(specimenKey, drawSpecimen(font.sfnt, meta.fullName));
    faces.push({
      familyName: meta.familyName,
      familyNameZh: meta.familyNameZhHans ?? meta.familyNameZhHant ?? null,
      styleName: meta.styleName,
      fullName: meta.fullName,
      postscriptName: meta.postscriptName,
      weight: meta.weight,
      italic: meta.italic,
      glyphCount: meta.glyphCount,
      unitsPerEm: meta.unitsPerEm,
      version: meta.version,
      copyright: meta.copyright ?? null,
      format,
      coverage: meta.coverage,
      faceKey,
      faceSize: font.sfnt.byteLength,
      sha256: createHash('sha256').update(font.sfnt).digest('hex'),
      specimenKey,
    });
  }
  faces.sort((a, b) => a.weight - b.weight || Number(a.italic) - Number(b.italic));
  return { faces, licenseText: opened.licenseText ?? null };
}

async function stored(key: string): Promise<Uint8Array> {
  const object = await storage().get(key);
  if (!object) throw new Error(`submission face is missing from storage: ${key}`);
  return object.bytes ?? new Uint8Array(await buffer(object.body));
}

/** How a final face differs from the reviewed face of its weight (run in a tools worker). */
export async function compareSubmissionFaces(task: DesignCompareTask): Promise<FaceComparison> {
  const [reviewed, final] = await Promise.all([stored(task.reviewedKey), stored(task.finalKey)]);
  return compareFaces(reviewed, final);
}
