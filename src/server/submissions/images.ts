import { buffer } from 'node:stream/consumers';
import sharp, { type Metadata, type OutputInfo } from 'sharp';
import { FontInputError } from '../engine/font-errors.ts';
import { storage } from '../storage/index.ts';

// The check of a submitted picture: decoded by sharp (on libuv's threads, off the event loop)
// within a pixel budget, turned upright by its EXIF orientation and stored as WebP without metadata.

/** Largest picture a specimen image may decode to. */
const MAX_IMAGE_PIXELS = 40_000_000;
/** Stored specimens are at most this wide. */
const MAX_IMAGE_WIDTH = 2400;

/**
 * Checks an uploaded picture and stores it as WebP at `outKey` (upright, without EXIF); throws
 * FontInputError 'not-image' for anything that is not a PNG, JPEG or WebP within the pixel budget.
 */
export async function checkSubmissionImage(
  key: string,
  outKey: string,
): Promise<{ width: number; height: number; size: number }> {
  const object = await storage().get(key);
  if (!object) throw new FontInputError('not-image', `missing ${key}`, '上传的图片不存在或已过期，请重新上传');
  const bytes = await buffer(object.body);
  let metadata: Metadata;
  try {
    metadata = await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS }).metadata();
  } catch {
    throw new FontInputError('not-image', 'unreadable', '图片无法读取，请上传 PNG、JPEG 或 WebP 图片');
  }
  if (!['png', 'jpeg', 'webp'].includes(metadata.format ?? '')) {
    throw new FontInputError('not-image', String(metadata.format), '展示图只能是 PNG、JPEG 或 WebP 图片');
  }
  if ((metadata.width ?? 0) * (metadata.height ?? 0) > MAX_IMAGE_PIXELS) {
    throw new FontInputError('not-image', 'too many pixels', '图片尺寸过大（超过 4000 万像素），请缩小后上传');
  }
  let output: { data: Buffer; info: OutputInfo };
  try {
    output = await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS })
      .rotate()
      .resize({ width: MAX_IMAGE_WIDTH, withoutEnlargement: true })
      .webp({ quality: 86 })
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw new FontInputError('not-image', 'decode failed', '图片已损坏，无法读取，请重新导出后上传');
  }
  await storage().put(outKey, output.data);
  return { width: output.info.width, height: output.info.height, size: output.data.byteLength };
}
