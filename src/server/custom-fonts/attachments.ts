import { randomUUID } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import yauzl from 'yauzl';
import { CUSTOM_FONT_MAX_FILE_MB } from '../../contract/custom-fonts.ts';
import type { UploadTicket } from '../../contract/submissions.ts';
import { sniffFontFormat } from '../engine/font-format.ts';
import { isZip } from '../engine/font-package.ts';
import { badRequest } from '../http/envelope.ts';
import { storage } from '../storage/index.ts';
import { issueUploadTicket, ownUpload } from '../storage/uploads.ts';

// The attachments of a custom-font request: a brand guide or logo, handwriting on the template
// sheet, scans of book pages, a character list or a font to match. They come through the site's
// upload tickets (storage/uploads.ts) and are told by their bytes, never by their names: a picture
// must decode, a PDF must start and end as one, a zip must open, a font must have a font's header.
// They are kept as sent, privately, for the editors to download.

/** The largest attachment, in bytes. */
export const MAX_ATTACHMENT_BYTES = CUSTOM_FONT_MAX_FILE_MB * 1024 * 1024;
/** Pictures larger than this many pixels are refused before decoding (scans at 600 dpi fit). */
const MAX_IMAGE_PIXELS = 100_000_000;
/** A zip of more entries than this is not a set of samples. */
const MAX_ZIP_ENTRIES = 2000;

/** The content types a ticket may name; anything else is sent as octet-stream and judged by its bytes. */
const TYPES = [
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/tiff',
  'application/pdf',
  'application/zip',
  'application/x-zip-compressed',
  'font/ttf',
  'font/otf',
  'font/woff',
  'font/woff2',
];

/** What an attachment's bytes are. */
export type AttachmentType = 'image' | 'pdf' | 'zip' | 'font';

/** Content type of each kind when an editor downloads it. */
export const ATTACHMENT_CONTENT_TYPES: Record<string, string> = {
  image: 'application/octet-stream',
  pdf: 'application/pdf',
  zip: 'application/zip',
  font: 'application/octet-stream',
};

/** Upload credentials for one attachment (GET /web/api/dingzhi/uploadTicket). */
export async function attachmentTicket(
  accountId: number,
  file: { name: string; size: number; type: string },
  now = new Date(),
): Promise<UploadTicket> {
  if (file.size > MAX_ATTACHMENT_BYTES) {
    throw badRequest(`每个附件最大 ${CUSTOM_FONT_MAX_FILE_MB} MB，更大的资料请压缩或在沟通时另行发送`);
  }
  const contentType = TYPES.includes(file.type) ? file.type : 'application/octet-stream';
  return issueUploadTicket(accountId, { name: file.name, size: file.size, contentType }, now);
}

async function zipOpens(bytes: Buffer): Promise<boolean> {
  let zip: yauzl.ZipFile | undefined;
  try {
    zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true, strictFileNames: true });
    return zip.entryCount > 0 && zip.entryCount <= MAX_ZIP_ENTRIES;
  } catch {
    return false;
  } finally {
    zip?.close();
  }
}

async function imageDecodes(bytes: Buffer): Promise<boolean> {
  try {
    const meta = await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS }).metadata();
    return ['png', 'jpeg', 'webp', 'tiff'].includes(meta.format ?? '') && (meta.width ?? 0) > 0;
  } catch {
    return false;
  }
}

/** What the bytes are, or undefined when they are none of the accepted kinds. */
export async function attachmentType(bytes: Buffer): Promise<AttachmentType | undefined> {
  const head = bytes.subarray(0, 5).toString('latin1');
  if (head === '%PDF-') {
    // A PDF ends with %%EOF (followed at most by line ends); a cut-off upload does not.
    return /%%EOF\s*$/.test(bytes.subarray(-1024).toString('latin1')) ? 'pdf' : undefined;
  }
  if (isZip(bytes)) return (await zipOpens(bytes)) ? 'zip' : undefined;
  const font = sniffFontFormat(bytes);
  if (font && font !== 'eot') return 'font';
  return (await imageDecodes(bytes)) ? 'image' : undefined;
}

/** A checked attachment, stored under the request's private folder. */
export interface StoredAttachment {
  fileKey: string;
  name: string;
  size: number;
  type: AttachmentType;
}

/**
 * Checks every named upload of `accountId` and stores it under private/custom-fonts/<folder>/.
 * On any refusal nothing stays behind (neither the stored copies nor the uploads) and the Chinese
 * reason names the file.
 */
export async function storeAttachments(
  accountId: number,
  folder: string,
  refs: ReadonlyArray<{ key: string; name: string }>,
): Promise<StoredAttachment[]> {
  const stored: StoredAttachment[] = [];
  try {
    for (const ref of refs) {
      const key = ownUpload(accountId, ref.key);
      const object = await storage().get(key);
      if (!object) throw badRequest(`附件“${ref.name}”不存在或已过期，请重新上传`);
      if (object.size > MAX_ATTACHMENT_BYTES) {
        object.body.destroy();
        throw badRequest(`附件“${ref.name}”超过 ${CUSTOM_FONT_MAX_FILE_MB} MB`);
      }
      const bytes = await buffer(object.body);
      const type = await attachmentType(bytes);
      if (!type) {
        throw badRequest(
          `附件“${ref.name}”不是可以接收的文件：请上传图片（PNG、JPEG、WebP、TIFF）、PDF、ZIP 或字体文件`,
        );
      }
      const fileKey = `private/custom-fonts/${folder}/${randomUUID()}`;
      const stat = await storage().put(fileKey, bytes);
      stored.push({ fileKey, name: ref.name, size: stat.size, type });
    }
  } catch (error) {
    await discardAttachments(stored);
    throw error;
  } finally {
    await Promise.all(
      refs.map((ref) =>
        storage()
          .delete(ref.key)
          .catch(() => undefined),
      ),
    );
  }
  return stored;
}

/** Removes stored attachments (a request whose row could not be written). */
export async function discardAttachments(stored: readonly StoredAttachment[]): Promise<void> {
  await Promise.all(
    stored.map((file) =>
      storage()
        .delete(file.fileKey)
        .catch(() => undefined),
    ),
  );
}
