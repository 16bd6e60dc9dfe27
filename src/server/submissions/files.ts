import { randomUUID } from 'node:crypto';
import {
  SUBMISSION_MAX_FONT_MB,
  SUBMISSION_MAX_IMAGE_MB,
  type SubmissionFileView,
  type UploadPurpose,
  type UploadTicket,
} from '../../contract/submissions.ts';
import { systemClock } from '../auth/clock.ts';
import { createSharedLimiter } from '../auth/shared-limiter.ts';
import type { StoredFileReport, submissionFiles } from '../db/schema/index.ts';
import { FontInputError } from '../engine/font-errors.ts';
import { badRequest, tooManyRequests } from '../http/envelope.ts';
import { log } from '../log.ts';
import { INCOMING_PREFIX, storage } from '../storage/index.ts';
import { ToolTaskError } from '../tools/pool.ts';
import { toolsPool } from '../tools/runtime.ts';
import { checkSubmissionImage } from './images.ts';

// A submission's files travel in two steps. getSTSToken hands the browser a presigned PUT for one
// key under tools/incoming/<account>-<random>/, one size and one type, valid ten minutes; the
// browser sends the bytes straight to storage. saveSubmission then names that key: the server
// checks that it belongs to the caller, reads the file (fonts in a tools worker), and only then
// moves it under private/submissions/<uid>/ and writes a row. A file that fails its check is
// deleted with its reason; one that is never named expires with the tools' uploads.

/** How long an upload ticket is valid. */
const TICKET_SECONDS = 10 * 60;
/** Tickets one account may take in ten minutes: a family, its revisions and pictures fit many times. */
export const TICKETS_PER_TEN_MINUTES = 30;
const ticketRate = createSharedLimiter({
  name: 'uploadTickets',
  limit: TICKETS_PER_TEN_MINUTES,
  windowMs: 10 * 60_000,
  clock: systemClock,
});

const FONT_TYPES = ['font/ttf', 'font/otf', 'font/woff2', 'application/zip', 'application/octet-stream'];
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'];

/** The largest file of a purpose, in bytes. */
export function maxBytesOf(purpose: UploadPurpose): number {
  return (purpose === 'image' ? SUBMISSION_MAX_IMAGE_MB : SUBMISSION_MAX_FONT_MB) * 1024 * 1024;
}

/** A name storage keys allow, keeping the extension: the designer's own name is kept in the row. */
function keyName(name: string): string {
  const dot = name.lastIndexOf('.');
  const ext =
    dot > 0
      ? name
          .slice(dot + 1)
          .replace(/[^A-Za-z0-9]/g, '')
          .slice(0, 8)
      : '';
  return ext ? `upload.${ext.toLowerCase()}` : 'upload';
}

/** Upload credentials for one file of `accountId` (getSTSToken). */
export async function uploadTicket(
  accountId: number,
  file: { purpose: UploadPurpose; name: string; size: number; type: string },
  now = new Date(),
): Promise<UploadTicket> {
  const max = maxBytesOf(file.purpose);
  if (file.size <= 0) throw badRequest('文件是空的，请重新选择');
  if (file.size > max) {
    throw badRequest(
      file.purpose === 'image'
        ? `展示图最大 ${SUBMISSION_MAX_IMAGE_MB} MB，请压缩后上传`
        : `字体文件最大 ${SUBMISSION_MAX_FONT_MB} MB（压缩包也是如此），请分开投稿或联系我们`,
    );
  }
  const verdict = await ticketRate.hit(`account:${accountId}`);
  if (!verdict.allowed) throw tooManyRequests(verdict.retryAfter, '上传太频繁，请稍后再试');
  const types = file.purpose === 'image' ? IMAGE_TYPES : FONT_TYPES;
  const contentType = types.includes(file.type)
    ? file.type
    : file.purpose === 'image'
      ? ''
      : 'application/octet-stream';
  if (!contentType) throw badRequest('展示图只能是 PNG、JPEG 或 WebP 图片');
  const key = `${INCOMING_PREFIX}/${accountId}-${randomUUID()}/${keyName(file.name)}`;
  const { url, headers } = await storage().presignPut(key, {
    size: file.size,
    type: contentType,
    expiresSeconds: TICKET_SECONDS,
    now,
  });
  return { url, method: 'PUT', headers, key, expiresAt: new Date(now.getTime() + TICKET_SECONDS * 1000).toISOString() };
}

/** Refuses a key that is not an upload of this account. */
export function ownUpload(accountId: number, key: string): string {
  const pattern = new RegExp(`^${INCOMING_PREFIX}/${accountId}-[0-9a-f-]{36}/upload(\\.[a-z0-9]{1,8})?$`);
  if (!pattern.test(key)) throw badRequest('上传的文件不存在或不属于你，请重新上传');
  return key;
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

async function moveObject(from: string, to: string): Promise<number> {
  const object = await storage().get(from);
  if (!object) throw badRequest('上传的文件不存在或已过期，请重新上传');
  const stat = await storage().put(to, object.body);
  await storage().delete(from);
  return stat.size;
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
    const ext = key.slice(key.lastIndexOf('/') + 1).split('.')[1] ?? 'bin';
    const size = await moveObject(key, `${folder}/source.${ext}`);
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
