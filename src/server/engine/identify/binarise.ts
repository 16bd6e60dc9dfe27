// Ink from a picture: a grey image, the polarity of the text (dark on light or light on dark), and an
// adaptive threshold on integral images that follows uneven lighting.

/** A grey image, 0 black to 255 white, one byte a pixel. */
export interface GrayImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** A binary image: 1 where there is ink, 0 elsewhere. */
export interface InkMask {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Turns RGBA pixels into grey, compositing transparent parts over white. */
export function grayOf(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number): GrayImage {
  const data = new Uint8Array(width * height);
  for (let i = 0, p = 0; i < data.length; i++, p += 4) {
    const alpha = (rgba[p + 3] as number) / 255;
    const luma = 0.299 * (rgba[p] as number) + 0.587 * (rgba[p + 1] as number) + 0.114 * (rgba[p + 2] as number);
    data[i] = Math.round(luma * alpha + 255 * (1 - alpha));
  }
  return { width, height, data };
}

/** Otsu's threshold of a grey image: the level that best splits it into two classes. */
export function otsuThreshold(gray: GrayImage): number {
  const histogram = new Float64Array(256);
  for (const value of gray.data) (histogram[value] as number)++;
  const total = gray.data.length;
  let sumAll = 0;
  for (let i = 0; i < 256; i++) sumAll += i * (histogram[i] as number);
  let sumBelow = 0;
  let countBelow = 0;
  let best = 127;
  let bestVariance = -1;
  for (let t = 0; t < 256; t++) {
    countBelow += histogram[t] as number;
    if (countBelow === 0) continue;
    const countAbove = total - countBelow;
    if (countAbove === 0) break;
    sumBelow += t * (histogram[t] as number);
    const meanBelow = sumBelow / countBelow;
    const meanAbove = (sumAll - sumBelow) / countAbove;
    const variance = countBelow * countAbove * (meanBelow - meanAbove) ** 2;
    if (variance > bestVariance) {
      bestVariance = variance;
      best = t;
    }
  }
  return best;
}

/**
 * Whether the text is light on a dark ground. Text covers less of a picture than its ground, and
 * the ground reaches the border: the side of Otsu's split that holds most of the border is ground.
 */
export function isLightText(gray: GrayImage): boolean {
  const threshold = otsuThreshold(gray);
  const { width, height, data } = gray;
  let dark = 0;
  let border = 0;
  const count = (i: number) => {
    border++;
    if ((data[i] as number) <= threshold) dark++;
  };
  for (let x = 0; x < width; x++) {
    count(x);
    count((height - 1) * width + x);
  }
  for (let y = 1; y < height - 1; y++) {
    count(y * width);
    count(y * width + width - 1);
  }
  return dark > border / 2;
}

/** A 3 × 3 binomial blur, which takes the edge off JPEG and sensor noise before thresholding. */
function smooth(gray: GrayImage): Float32Array {
  const { width, height, data } = gray;
  const horizontal = new Float32Array(width * height);
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const left = data[x > 0 ? i - 1 : i] as number;
      const right = data[x < width - 1 ? i + 1 : i] as number;
      horizontal[i] = (left + 2 * (data[i] as number) + right) / 4;
    }
  }
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const up = horizontal[y > 0 ? i - width : i] as number;
      const down = horizontal[y < height - 1 ? i + width : i] as number;
      out[i] = (up + 2 * (horizontal[i] as number) + down) / 4;
    }
  }
  return out;
}

/** Options of the adaptive threshold. */
export interface BinariseOptions {
  /** Side of the square window the local levels are taken over (odd); from the picture's size when absent. */
  window?: number;
  /** Force the polarity instead of detecting it. */
  lightText?: boolean;
}

/** Summed-area table of a per-pixel value, one row and column of zeros in front. */
function integral(values: Float32Array, width: number, height: number, pick: (v: number) => number): Float64Array {
  const stride = width + 1;
  const table = new Float64Array(stride * (height + 1));
  for (let y = 0; y < height; y++) {
    let row = 0;
    for (let x = 0; x < width; x++) {
      row += pick(values[y * width + x] as number);
      table[(y + 1) * stride + x + 1] = (table[y * stride + x + 1] as number) + row;
    }
  }
  return table;
}

/**
 * Ink of a picture by an adaptive threshold. Otsu's global split says which pixels are roughly ink
 * and roughly ground; then, over a window around each pixel (integral images, so the cost does not
 * depend on the window), the mean level of the ground and the mean level of the ink are taken and
 * the pixel is ink when it is darker than their midpoint. The midpoint follows uneven lighting and
 * faded print, and it cuts a blurred edge half-way, as a font's outline would be, so the strokes
 * keep their weight. Light text is inverted first, so the answer is always ink = 1.
 */
export function binarise(gray: GrayImage, options: BinariseOptions = {}): { mask: InkMask; lightText: boolean } {
  const { width, height } = gray;
  const lightText = options.lightText ?? isLightText(gray);
  const values = smooth(gray);
  if (lightText) for (let i = 0; i < values.length; i++) values[i] = 255 - (values[i] as number);
  const global = otsuThreshold({ width, height, data: Uint8Array.from(values, (v) => Math.round(v)) });
  let inkSum = 0;
  let inkCount = 0;
  let groundSum = 0;
  for (const v of values) {
    if (v <= global) {
      inkSum += v;
      inkCount++;
    } else groundSum += v;
  }
  const inkMean = inkCount ? inkSum / inkCount : 0;
  const groundMean = values.length > inkCount ? groundSum / (values.length - inkCount) : 255;
  const side = options.window ?? Math.min(201, Math.max(31, Math.round(Math.max(width, height) / 4) | 1));
  const half = side >> 1;
  const stride = width + 1;
  const inkSums = integral(values, width, height, (v) => (v <= global ? v : 0));
  const inkCounts = integral(values, width, height, (v) => (v <= global ? 1 : 0));
  const groundSums = integral(values, width, height, (v) => (v > global ? v : 0));
  const groundCounts = integral(values, width, height, (v) => (v > global ? 1 : 0));
  const box = (table: Float64Array, x0: number, y0: number, x1: number, y1: number) =>
    (table[y1 * stride + x1] as number) -
    (table[y0 * stride + x1] as number) -
    (table[y1 * stride + x0] as number) +
    (table[y0 * stride + x0] as number);
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const y0 = Math.max(0, y - half);
    const y1 = Math.min(height, y + half + 1);
    for (let x = 0; x < width; x++) {
      const x0 = Math.max(0, x - half);
      const x1 = Math.min(width, x + half + 1);
      const inks = box(inkCounts, x0, y0, x1, y1);
      const grounds = box(groundCounts, x0, y0, x1, y1);
      // A window with few pixels of a class borrows that class's level from the whole picture.
      const inkLevel = inks >= 4 ? box(inkSums, x0, y0, x1, y1) / inks : inkMean;
      const groundLevel = grounds >= 4 ? box(groundSums, x0, y0, x1, y1) / grounds : groundMean;
      const threshold = groundLevel - inkLevel < 24 ? global : (inkLevel + groundLevel) / 2;
      data[y * width + x] = (values[y * width + x] as number) < threshold ? 1 : 0;
    }
  }
  return { mask: { width, height, data }, lightText };
}
