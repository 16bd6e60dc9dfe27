import sharp, { type Metadata } from 'sharp';
import { FontInputError } from '../font-errors.ts';
import type { WordFont } from './draw.ts';
import type { Mask } from './layout.ts';

/** A mask with the picture it came from, at the same size, for colours sampled from it. */
export interface PictureMask extends Mask {
  /** RGBA of the picture fitted to the canvas, or undefined for masks drawn from a character. */
  rgba?: Uint8Array;
}

/** Largest side of a picture the tool reads; larger ones are refused before they are decoded. */
export const MAX_MASK_SIDE = 8000;

/** Everything inside a margin of the canvas: the shape of a cloud without a shape. */
export function rectangleMask(width: number, height: number, margin = 0.04): Mask {
  const inside = new Uint8Array(width * height);
  const mx = Math.round(width * margin);
  const my = Math.round(height * margin);
  for (let y = my; y < height - my; y++) inside.fill(1, y * width + mx, y * width + width - mx);
  return { width, height, inside };
}

/**
 * A mask from a picture (a template's SVG or an upload): fitted inside the canvas, centred. A
 * picture with transparency is its opaque part; an opaque one is its dark part (luminance below
 * `threshold`), so a black shape on white works as people draw it.
 */
export async function pictureMask(
  bytes: Uint8Array,
  width: number,
  height: number,
  threshold = 0.5,
): Promise<PictureMask> {
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: MAX_MASK_SIDE * MAX_MASK_SIDE }).metadata();
  } catch {
    throw new FontInputError(
      'not-image',
      'mask is not an image',
      '形状图片无法读取，请上传 PNG、JPEG、WebP 或 SVG 图片',
    );
  }
  if (!meta.width || !meta.height) {
    throw new FontInputError('not-image', 'mask has no size', '形状图片无法读取，请上传 PNG、JPEG、WebP 或 SVG 图片');
  }
  if (meta.width > MAX_MASK_SIDE || meta.height > MAX_MASK_SIDE) {
    throw new FontInputError(
      'too-large',
      `mask is ${meta.width}×${meta.height}`,
      `形状图片最大 ${MAX_MASK_SIDE} × ${MAX_MASK_SIDE} 像素，这张是 ${meta.width} × ${meta.height}`,
    );
  }
  let rgba: Buffer;
  try {
    rgba = await sharp(bytes, { limitInputPixels: MAX_MASK_SIDE * MAX_MASK_SIDE, density: 144 })
      .rotate()
      .resize(width, height, { fit: 'contain', background: { r: 255, g: 255, b: 255, alpha: 0 } })
      .ensureAlpha()
      .raw()
      .toBuffer();
  } catch {
    throw new FontInputError('not-image', 'mask could not be decoded', '形状图片无法读取，请换一张图片');
  }
  const pixels = width * height;
  // Transparency decides when the picture has any (beyond the letterbox fit added).
  let transparent = 0;
  let opaqueSeen = false;
  for (let i = 0; i < pixels; i++) {
    const a = rgba[i * 4 + 3] as number;
    if (a < 250) transparent++;
    else opaqueSeen = true;
  }
  const letterbox = meta.hasAlpha ? 0 : letterboxPixels(meta.width, meta.height, width, height);
  const byAlpha = meta.hasAlpha && transparent > letterbox && opaqueSeen;
  const cut = threshold * 255;
  const inside = new Uint8Array(pixels);
  for (let i = 0; i < pixels; i++) {
    const r = rgba[i * 4] as number;
    const g = rgba[i * 4 + 1] as number;
    const b = rgba[i * 4 + 2] as number;
    const a = rgba[i * 4 + 3] as number;
    if (byAlpha) inside[i] = a >= 128 ? 1 : 0;
    else inside[i] = a >= 128 && 0.2126 * r + 0.7152 * g + 0.0722 * b < cut ? 1 : 0;
  }
  return { width, height, inside, rgba: new Uint8Array(rgba.buffer, rgba.byteOffset, rgba.byteLength) };
}

/** Pixels a `contain` fit leaves empty around a picture of another aspect ratio. */
function letterboxPixels(pw: number, ph: number, width: number, height: number): number {
  const scale = Math.min(width / pw, height / ph);
  return width * height - Math.round(pw * scale) * Math.round(ph * scale);
}

/** A mask of one character drawn as large as the canvas allows, centred. */
export function characterMask(font: WordFont, character: string, width: number, height: number): Mask {
  const probe = font.ink({ text: character, size: 1000, angle: 0, vertical: false });
  // The ink's real extent, not its measured box: a glyph rarely fills its em.
  let minX = probe.width;
  let maxX = -1;
  let minY = probe.height;
  let maxY = -1;
  for (let y = 0; y < probe.height; y++) {
    for (let x = 0; x < probe.width; x++) {
      if ((probe.alpha[y * probe.width + x] as number) < 128) continue;
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
    }
  }
  if (maxX < 0) {
    throw new FontInputError(
      'incompatible',
      'character has no ink',
      `「${character}」在这款字体里没有笔画，换一个字试试`,
    );
  }
  const scale = Math.min((width * 0.94) / (maxX - minX + 1), (height * 0.94) / (maxY - minY + 1));
  const size = Math.max(1, Math.floor(1000 * scale));
  const ink = font.ink({ text: character, size, angle: 0, vertical: false });
  // Centre the ink's extent (scaled from the probe) on the canvas.
  const offsetX = Math.round(width / 2 - ((minX + maxX) / 2) * (size / 1000) - (probe.left * size) / 1000 + ink.left);
  const offsetY = Math.round(height / 2 - ((minY + maxY) / 2) * (size / 1000) - (probe.top * size) / 1000 + ink.top);
  const inside = new Uint8Array(width * height);
  for (let y = 0; y < ink.height; y++) {
    const cy = y + offsetY;
    if (cy < 0 || cy >= height) continue;
    for (let x = 0; x < ink.width; x++) {
      const cx = x + offsetX;
      if (cx < 0 || cx >= width) continue;
      if ((ink.alpha[y * ink.width + x] as number) >= 128) inside[cy * width + cx] = 1;
    }
  }
  return { width, height, inside };
}
