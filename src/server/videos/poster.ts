import sharp from 'sharp';
import { VideoFormatError } from './formats.ts';

/** Largest picture a poster may decode to. */
const MAX_POSTER_PIXELS = 40_000_000;
/** Stored posters are at most this wide (the player is never wider). */
const POSTER_WIDTH = 1280;

/**
 * Decodes a poster picture with sharp and re-encodes it as WebP (upright, without metadata), so
 * nothing but pixels from the upload is ever stored or served.
 */
export async function encodePoster(bytes: Uint8Array): Promise<{ webp: Buffer; width: number; height: number }> {
  let format: string | undefined;
  try {
    ({ format } = await sharp(bytes, { limitInputPixels: MAX_POSTER_PIXELS }).metadata());
  } catch {
    throw new VideoFormatError('封面图无法读取，请上传 PNG、JPEG 或 WebP 图片');
  }
  if (!['png', 'jpeg', 'webp'].includes(format ?? '')) {
    throw new VideoFormatError('封面图只能是 PNG、JPEG 或 WebP 图片');
  }
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: MAX_POSTER_PIXELS })
      .rotate()
      .resize({ width: POSTER_WIDTH, withoutEnlargement: true })
      .webp({ quality: 84 })
      .toBuffer({ resolveWithObject: true });
    return { webp: data, width: info.width, height: info.height };
  } catch {
    throw new VideoFormatError('封面图已损坏，无法读取，请重新导出后上传');
  }
}
