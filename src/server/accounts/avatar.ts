import sharp from 'sharp';
import { ApiError } from '../http/envelope.ts';

/** The largest avatar upload, in bytes. */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
/** The longest side an uploaded avatar may have (SPEC §9: the cropper's maximum image size). */
export const AVATAR_MAX_SIDE = 2000;
/** The side of the stored avatar, a square WebP. */
export const AVATAR_SIZE = 256;

const NOT_AN_IMAGE = '头像只能是 JPG、PNG、WebP 或 GIF 图片';

/** The image format of some bytes by their signature, ignoring whatever the client claimed. */
export function sniffImage(bytes: Uint8Array): 'jpeg' | 'png' | 'gif' | 'webp' | undefined {
  const ascii = (start: number, end: number) => String.fromCharCode(...bytes.subarray(start, end));
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (ascii(0, 8) === '\x89PNG\r\n\x1a\n') return 'png';
  if (ascii(0, 4) === 'GIF8') return 'gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  return undefined;
}

/**
 * Turns an uploaded image into the stored avatar: checks the signature (415 otherwise), the size
 * (413) and the sides (422, before any pixel is decoded), then re-encodes it as a 256 × 256 WebP,
 * which also drops metadata and anything hidden in the original file.
 */
export async function processAvatar(bytes: Uint8Array): Promise<Buffer> {
  if (bytes.byteLength > AVATAR_MAX_BYTES) throw new ApiError(413, '413', '头像文件不能超过 2 MB');
  if (!sniffImage(bytes)) throw new ApiError(415, '415', NOT_AN_IMAGE);
  const limitInputPixels = AVATAR_MAX_SIDE * AVATAR_MAX_SIDE;
  let width: number | undefined;
  let height: number | undefined;
  try {
    ({ width, height } = await sharp(bytes, { limitInputPixels: false }).metadata());
  } catch {
    throw new ApiError(415, '415', NOT_AN_IMAGE);
  }
  if (!width || !height) throw new ApiError(415, '415', NOT_AN_IMAGE);
  if (width > AVATAR_MAX_SIDE || height > AVATAR_MAX_SIDE) {
    throw new ApiError(422, '422', `头像图片的宽和高都不能超过 ${AVATAR_MAX_SIDE} 像素，请先裁剪或缩小`);
  }
  try {
    return await sharp(bytes, { limitInputPixels, failOn: 'error' })
      .rotate()
      .resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover' })
      .webp({ quality: 82 })
      .toBuffer();
  } catch {
    throw new ApiError(415, '415', '无法读取这张图片，请换一张再试');
  }
}
