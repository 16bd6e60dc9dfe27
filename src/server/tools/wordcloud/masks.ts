import { randomUUID } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import sharp, { type Metadata, type OutputInfo } from 'sharp';
import type { UploadedMask } from '../../../contract/word-cloud.ts';
import { MAX_MASK_SIDE } from '../../engine/wordcloud/mask.ts';
import { badRequest, notFound } from '../../http/envelope.ts';
import { type IncomingFile, receiveFile } from '../../http/multipart.ts';
import { storage } from '../../storage/index.ts';
import { toolsTtlMs } from '../runtime.ts';
import { UPLOADS_PREFIX } from '../uploads.ts';

// Pictures people upload as a cloud's shape. They follow the converter's rules for temporary
// files: kept under tools/uploads/<id>/ with their expiry in meta.json, removed by the sweeper.
// The picture is checked and stored as a PNG no larger than the largest canvas, so every later
// cloud reads a small, known-good file.

/** Largest picture file accepted. */
export const MAX_MASK_BYTES = 10 << 20;

const maskKey = (maskId: string) => `${UPLOADS_PREFIX}/${maskId}/mask.png`;
const metaKey = (maskId: string) => `${UPLOADS_PREFIX}/${maskId}/meta.json`;
const NOT_IMAGE = '形状图片无法读取，请上传 PNG、JPEG、WebP 或 SVG 图片';

/** Receives a picture (multipart field `file`), checks it and keeps it as a PNG for a while. */
export async function receiveMask(request: Request, now = new Date()): Promise<UploadedMask> {
  const bytes = await receiveFile(request, 'file', MAX_MASK_BYTES, async (file: IncomingFile) => buffer(file.body));
  if (bytes.byteLength === 0) throw badRequest('上传的图片是空的');
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw badRequest(NOT_IMAGE);
  }
  if (!meta.width || !meta.height || !['png', 'jpeg', 'webp', 'svg', 'gif'].includes(meta.format ?? '')) {
    throw badRequest(NOT_IMAGE);
  }
  if (meta.width > MAX_MASK_SIDE || meta.height > MAX_MASK_SIDE) {
    throw badRequest(
      `形状图片最大 ${MAX_MASK_SIDE} × ${MAX_MASK_SIDE} 像素，这张是 ${meta.width} × ${meta.height}，请缩小后再上传`,
    );
  }
  let png: Buffer;
  let info: OutputInfo;
  try {
    ({ data: png, info } = await sharp(bytes, { limitInputPixels: MAX_MASK_SIDE * MAX_MASK_SIDE })
      .rotate()
      .resize(1600, 1600, { fit: 'inside', withoutEnlargement: true })
      .png()
      .toBuffer({ resolveWithObject: true }));
  } catch {
    throw badRequest(NOT_IMAGE);
  }
  const maskId = randomUUID();
  const expiresAt = new Date(now.getTime() + toolsTtlMs()).toISOString();
  try {
    await storage().put(maskKey(maskId), png, { durable: false });
    await storage().put(metaKey(maskId), Buffer.from(JSON.stringify({ maskId, expiresAt })), { durable: false });
  } catch (error) {
    await storage().deleteTree(`${UPLOADS_PREFIX}/${maskId}`);
    throw error;
  }
  return { maskId, width: info.width, height: info.height, expiresAt };
}

/** The storage key of a mask that has not expired, or a 404 the person can act on. */
export async function findMask(maskId: string, now = new Date()): Promise<string> {
  const object = await storage().get(metaKey(maskId));
  const gone = () => notFound('形状图片不存在或已过期，请重新上传');
  if (!object) throw gone();
  const { expiresAt } = JSON.parse((await buffer(object.body)).toString('utf8')) as { expiresAt: string };
  if (Date.parse(expiresAt) <= now.getTime()) throw gone();
  return maskKey(maskId);
}
