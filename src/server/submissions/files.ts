import { randomUUID } from 'node:crypto';
import {
  SUBMISSION_MAX_FONT_MB,
  SUBMISSION_MAX_IMAGE_MB,
  type SubmissionFileView,
  type UploadPurpose,
  type UploadTicket,
} from '../../contract/submissions.ts';
import type { StoredFileReport, submissionFiles } from '../db/schema/index.ts';
import { FontInputError } from '../engine/font-errors.ts';
import { badRequest } from '../http/envelope.ts';
import { log } from '../log.ts';
import { storage } from '../storage/index.ts';
import { issueUploadTicket, moveUpload, uploadExtension } from '../storage/uploads.ts';
import { ToolTaskError } from '../tools/pool.ts';
import { toolsPool } from '../tools/runtime.ts';
import { checkSubmissionImage } from './images.ts';

// A submission's files come through the site's upload tickets (storage/uploads.ts): the browser
// puts the bytes in storage, saveSubmission names the key, and the file is checked (fonts in a
// tools worker) before it moves under private/submissions/<uid>/ and gets a row. A file that fails
// its check is deleted with its reason.

const FONT_TYPES = ['font/ttf', 'font/otf', 'font/woff2', 'application/zip', 'application/octet-stream'];
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'];

/** The largest file of a purpose, in bytes. */
export function maxBytesOf(purpose: UploadPurpose): number {
  return (purpose === 'image' ? SUBMISSION_MAX_IMAGE_MB : SUBMISSION_MAX_FONT_MB) * 1024 * 1024;
}

/** Upload credentials for one file of `accountId` (getSTSToken). */
export async function uploadTicket(
  accountId: number,
  file: { purpose: UploadPurpose; name: string; size: number; type: string },
  now = new Date(),
): Promise<UploadTicket> {
  if (file.size > maxBytesOf(file.purpose)) {
    throw badRequest(
      file.purpose === 'image'
        ? `展示图最大 ${SUBMISSION_MAX_IMAGE_MB} MB，请压缩后上传`
        : `字体文件最大 ${SUBMISSION_MAX_FONT_MB} MB（压缩包也是如此），请分开投稿或联系我们`,
    );
  }
  const types = file.purpose === 'image' ? IMAGE_TYPES : FONT_TYPES;
  const contentType = types.includes(file.type)
    ? file.type
    : file.purpose === 'image'
      ? ''
      : 'application/octet-stream';
  if (!contentType && file.size > 0) throw badRequest('展示图只能是 PNG、JPEG 或 WebP 图片');
  return issueUploadTicket(accountId, { name: file.name, size: file.size, contentType }, now);
}

/** What a checked file is stored as, before its row is written. */
export interface CheckedFile {
  kind: 'font' | 'image' | 'final';
  fileKey: string;
  name: string;
  size: number;
  report: StoredFileReport;
  /** The folder everything of this file lives in, to remove if the row cannot be written. */
  folder: string;
}

/**
 * Checks an upload and moves it under the submission's folder. Throws a 400 with the reason (and
 * leaves nothing behind) when it is not what its kind needs.
 */
export async function checkUpload(
  uid: string,
  kind: 'font' | 'image' | 'final',
  key: string,
  name: string,
): Promise<CheckedFile> {
  const folder = `private/submissions/${uid}/${randomUUID()}`;
  const stat = await storage().stat(key);
  if (!stat) throw badRequest('上传的文件不存在或已过期，请重新上传');
  try {
    if (stat.size > maxBytesOf(kind === 'image' ? 'image' : 'font')) throw badRequest('文件过大');
    if (kind === 'image') {
      const image = await checkSubmissionImage(key, `${folder}/image.webp`);
      await storage().delete(key);
      return {
        kind,
        fileKey: `${folder}/image.webp`,
        name,
        size: image.size,
        report: { kind: 'image', width: image.width, height: image.height },
        folder,
      };
    }
    const result = await toolsPool()
      .run(
        { kind: 'submissionFont', key, name, outPrefix: folder, maxFontBytes: 64 << 20 },
        { lane: 'quick', timeoutMs: 180_000 },
      )
      .catch((error: unknown) => {
        if (error instanceof ToolTaskError && error.userFacing) throw badRequest(error.message);
        log().warn({ err: error, key }, 'submitted font could not be read');
        throw badRequest('无法读取这个字体文件，文件可能已损坏或格式不受支持');
      });
    const ext = uploadExtension(key);
    const size = await moveUpload(key, `${folder}/source.${ext}`);
    return {
      kind,
      fileKey: `${folder}/source.${ext}`,
      name,
      size,
      report: { kind: 'font', faces: result.faces, licenseText: result.licenseText },
      folder,
    };
  } catch (error) {
    await Promise.all([storage().delete(key), storage().deleteTree(folder)]);
    if (error instanceof FontInputError) throw badRequest(error.message);
    throw error;
  }
}

type FileRow = typeof submissionFiles.$inferSelect;

/** A file row as the pages show it; pictures are served by the asset route to owner and reviewers. */
export function fileView(uid: string, row: FileRow): SubmissionFileView {
  const asset = (part: string) => `/web/api/contribute/asset?uid=${uid}&file=${row.id}&part=${part}`;
  const report = row.report;
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    size: row.size,
    faces:
      report?.kind === 'font'
        ? report.faces.map((face, i) => ({
            familyName: face.familyName,
            styleName: face.styleName,
            fullName: face.fullName,
            weight: face.weight,
            italic: face.italic,
            glyphCount: face.glyphCount,
            version: face.version,
            format: face.format,
            coverage: face.coverage,
            specimenUrl: asset(`specimen-${i}`),
          }))
        : [],
    imageUrl: report?.kind === 'image' ? asset('image') : null,
    width: report?.kind === 'image' ? report.width : null,
    height: report?.kind === 'image' ? report.height : null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The stored key of an asset of a file row: its image, or a face's specimen or font. */
export function assetKey(row: FileRow, part: string): { key: string; type: string } | undefined {
  const report = row.report;
  if (part === 'image' && report?.kind === 'image') return { key: row.fileKey, type: 'image/webp' };
  const match = /^(specimen|face)-(\d{1,2})$/.exec(part);
  if (!match || report?.kind !== 'font') return undefined;
  const face = report.faces[Number(match[2])];
  if (!face) return undefined;
  return match[1] === 'specimen'
    ? { key: face.specimenKey, type: 'image/png' }
    : { key: face.faceKey, type: face.format === 'otf' ? 'font/otf' : 'font/ttf' };
}
