import CryptoJS from 'crypto-js';
import sharp from 'sharp';

interface Raw {
  data: Buffer;
  width: number;
  height: number;
}

async function decode(base64: string): Promise<Raw> {
  const { data, info } = await sharp(Buffer.from(base64, 'base64'))
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/**
 * Finds where the piece belongs by looking at the two images only, as a person does: the hole is
 * the background darkened by half (toward rgb 20), so for every candidate x the piece's opaque
 * inner pixels are compared with the shaded background, and the best match wins.
 */
export async function findPieceOffset(originalImageBase64: string, jigsawImageBase64: string): Promise<number> {
  const background = await decode(originalImageBase64);
  const piece = await decode(jigsawImageBase64);
  const alpha = (x: number, y: number) =>
    x < 0 || y < 0 || x >= piece.width || y >= piece.height ? 0 : (piece.data[(y * piece.width + x) * 4 + 3] ?? 0);
  // Inner pixels only: three pixels away from any edge, clear of the anti-aliased rim and outline.
  const inner: [number, number][] = [];
  for (let y = 0; y < piece.height; y += 1) {
    for (let x = 0; x < piece.width; x += 1) {
      let solid = true;
      for (let dy = -3; dy <= 3 && solid; dy += 1)
        for (let dx = -3; dx <= 3 && solid; dx += 1) solid = alpha(x + dx, y + dy) === 255;
      if (solid) inner.push([x, y]);
    }
  }
  let best = { x: -1, error: Number.POSITIVE_INFINITY };
  for (let offset = 0; offset <= background.width - piece.width; offset += 1) {
    let error = 0;
    for (const [x, y] of inner) {
      const p = (y * piece.width + x) * 4;
      const b = (y * background.width + x + offset) * 4;
      for (let channel = 0; channel < 3; channel += 1) {
        const expected = (piece.data[p + channel] ?? 0) * 0.5 + 10;
        error += Math.abs((background.data[b + channel] ?? 0) - expected);
      }
    }
    if (error < best.error) best = { x: offset, error };
  }
  return best.x;
}

/** The browser's encryption (crypto-js AES-ECB-PKCS7 under the UTF-8 key), as AJ-Captcha clients do it. */
export function browserEncrypt(plain: string, key: string): string {
  return CryptoJS.AES.encrypt(CryptoJS.enc.Utf8.parse(plain), CryptoJS.enc.Utf8.parse(key), {
    mode: CryptoJS.mode.ECB,
    padding: CryptoJS.pad.Pkcs7,
  }).toString();
}
