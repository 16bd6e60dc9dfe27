import sharp from 'sharp';

// Pictures compared by their ink: how much two drawings of the same thing agree, whichever renderer
// drew them (Skia's PNG, an SVG of outlines rasterised by librsvg).

/**
 * The dark pixels of a picture (PNG, SVG …) scaled to `size` × `size`, as a mask of 0 and 1: those
 * darker than `below` (0–255). Light inks (a palette's pale greys) need a bound near white.
 */
export async function inkMask(picture: Uint8Array, size = 300, below = 160): Promise<Uint8Array> {
  const { data } = await sharp(picture, { density: 72 })
    .resize(size, size, { fit: 'fill' })
    .flatten({ background: '#ffffff' })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return Uint8Array.from(data, (value) => (value < below ? 1 : 0));
}

/** Intersection over union of two masks (or bit strings of '0' and '1'); 1 when both are blank. */
export function iou(a: ArrayLike<number | string>, b: ArrayLike<number | string>): number {
  const on = (value: number | string | undefined) => value === 1 || value === '1';
  let both = 0;
  let either = 0;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = on(a[i]);
    const y = on(b[i]);
    if (x && y) both++;
    if (x || y) either++;
  }
  return either === 0 ? 1 : both / either;
}

/**
 * The mask of a square picture `size` pixels wide with every ink pixel's eight neighbours inked
 * too: two renderers antialias a hairline stroke a pixel apart, so comparing widened masks asks
 * whether the same strokes are in the same places, and a word moved by a few pixels still disagrees.
 */
export function widen(mask: Uint8Array, size: number): Uint8Array {
  const out = new Uint8Array(mask.length);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      if (!mask[y * size + x]) continue;
      for (let dy = Math.max(0, y - 1); dy <= Math.min(size - 1, y + 1); dy++) {
        for (let dx = Math.max(0, x - 1); dx <= Math.min(size - 1, x + 1); dx++) out[dy * size + dx] = 1;
      }
    }
  }
  return out;
}
