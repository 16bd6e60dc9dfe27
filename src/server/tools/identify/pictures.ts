import { randomUUID } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import sharp, { type Metadata, type OutputInfo } from 'sharp';
import { IDENTIFY_MAX_BYTES, IDENTIFY_MAX_SIDE, type UploadedPicture } from '../../../contract/identify.ts';
import { badRequest, notFound } from '../../http/envelope.ts';
import { type IncomingFile, receiveFile } from '../../http/multipart.ts';
import { storage } from '../../storage/index.ts';
import { toolsTtlMs } from '../runtime.ts';
import { UPLOADS_PREFIX } from '../uploads.ts';

// Pictures people upload to identify a font (SPEC §7 "upload temp file"). They follow the
// converter's rules for temporary files: kept under tools/uploads/<id>/ with their expiry in
// meta.json, removed by the sweeper. The file is checked by its first bytes, its declared size is
// read before anything is decoded (a 30 000 × 30 000 PNG of a few kilobytes is refused unopened),
// then it is turned upright (EXIF orientation), scaled to at most 2000 px (SPEC §9) and kept as a
// grey PNG, so every later step reads a small, known-good file.

/** Largest declared picture accepted before decoding: 100 million pixels, 20 000 px a side. */
const MAX_PIXELS = 100_000_000;
const MAX_DECLARED_SIDE = 20_000;

const pictureKey = (pictureId: string) => `${UPLOADS_PREFIX}/${pictureId}/picture.png`;
const metaKey = (pictureId: string) => `${UPLOADS_PREFIX}/${pictureId}/meta.json`;
const NOT_IMAGE = '无法读取这张图片，请上传 PNG、JPEG 或 WebP 图片（手机照片可直接上传）';

/** The picture format from its first bytes, or null. */
export function sniffPicture(bytes: Uint8Array): 'png' | 'jpeg' | 'webp' | null {
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes[0] === 0x89 && ascii(1, 4) === 'PNG') return 'png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  return null;
}

/** Receives a picture (multipart field `file`), checks it and keeps it as a grey PNG for a while. */
export async function receivePicture(request: Request, now = new Date()): Promise<UploadedPicture> {
  const bytes = await receiveFile(request, 'file', IDENTIFY_MAX_BYTES, async (file: IncomingFile) => buffer(file.body));
  if (bytes.byteLength === 0) throw badRequest('上传的图片是空的');
  const format = sniffPicture(bytes);
  if (!format) throw badRequest(NOT_IMAGE);
  let meta: Metadata;
  try {
    // Reads the header only: the declared size, before any pixel is decoded.
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw badRequest(NOT_IMAGE);
  }
  if (!meta.width || !meta.height || meta.format !== format) throw badRequest(NOT_IMAGE);
  if (meta.width * meta.height > MAX_PIXELS || Math.max(meta.width, meta.height) > MAX_DECLARED_SIDE) {
    throw badRequest(
      `图片尺寸过大（${meta.width} × ${meta.height} 像素），请缩小到 ${MAX_DECLARED_SIDE} 像素、1 亿像素以内，或只截取有文字的部分`,
    );
  }
  let png: Buffer;
  let info: OutputInfo;
  try {
    ({ data: png, info } = await sharp(bytes, { limitInputPixels: MAX_PIXELS })
      .rotate()
      .resize(IDENTIFY_MAX_SIDE, IDENTIFY_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .greyscale()
      .png({ compressionLevel: 6 })
      .toBuffer({ resolveWithObject: true }));
  } catch {
    throw badRequest(NOT_IMAGE);
  }
  const pictureId = randomUUID();
  const expiresAt = new Date(now.getTime() + toolsTtlMs()).toISOString();
  try {
    await storage().put(pictureKey(pictureId), png, { durable: false });
    await storage().put(metaKey(pictureId), Buffer.from(JSON.stringify({ pictureId, expiresAt })), { durable: false });
  } catch (error) {
    await storage().deleteTree(`${UPLOADS_PREFIX}/${pictureId}`);
    throw error;
  }
  return { pictureId, width: info.width, height: info.height, expiresAt };
}

/** The storage key of a picture that has not expired, or a 404 the person can act on. */
export async function findPicture(pictureId: string, now = new Date()): Promise<string> {
  const gone = () => notFound('图片不存在或已过期，请重新上传');
  if (!/^[0-9a-f-]{36}$/.test(pictureId)) throw gone();
  const object = await storage().get(metaKey(pictureId));
  if (!object) throw gone();
  const { expiresAt } = JSON.parse((await buffer(object.body)).toString('utf8')) as { expiresAt: string };
  if (Date.parse(expiresAt) <= now.getTime()) throw gone();
  return pictureKey(pictureId);
}
