// Ink from a picture: a grey image, the polarity of the text (dark on light or light on dark), and an
// adaptive threshold on integral images that follows uneven lighting.

/**
 * The least contrast assumed of text against its ground, as a share of the room the ground leaves:
 * print, screens and signs are seldom fainter (tuned on tests/bench/identify.ts: from 0.25 of the
 * ground's level in the coverage alone to this, weight top 3 rose from 86 to 93 % on standard
 * pictures and from 65 to 81 % on harder ones).
 */
export const INK_DEPTH = 0.85;

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

/** The value at a share `q` (0–1) of the sorted values. */
function percentile(values: Float32Array, q: number): number {
  const sorted = Float32Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.floor(sorted.length * q)))] ?? 0;
}

/** Mean of `values` over a square window around each pixel, counting only pixels where `use` is 1. */
function windowMeans(values: Float32Array, use: Uint8Array, width: number, height: number, side: number) {
  const stride = width + 1;
  const sums = new Float64Array(stride * (height + 1));
  const counts = new Float64Array(stride * (height + 1));
  for (let y = 0; y < height; y++) {
    let rowSum = 0;
    let rowCount = 0;
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (use[i]) {
        rowSum += values[i] as number;
        rowCount++;
      }
      sums[(y + 1) * stride + x + 1] = (sums[y * stride + x + 1] as number) + rowSum;
      counts[(y + 1) * stride + x + 1] = (counts[y * stride + x + 1] as number) + rowCount;
    }
  }
  const half = side >> 1;
  const means = new Float32Array(width * height);
  const filled = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const y0 = Math.max(0, y - half);
    const y1 = Math.min(height, y + half + 1);
    for (let x = 0; x < width; x++) {
      const x0 = Math.max(0, x - half);
      const x1 = Math.min(width, x + half + 1);
      const at = (t: Float64Array) =>
        (t[y1 * stride + x1] as number) -
        (t[y0 * stride + x1] as number) -
        (t[y1 * stride + x0] as number) +
        (t[y0 * stride + x0] as number);
      const count = at(counts);
      means[y * width + x] = count > 0 ? at(sums) / count : Number.NaN;
      filled[y * width + x] = count / ((x1 - x0) * (y1 - y0));
    }
  }
  return { means, filled };
}

/**
 * The picture with its ground taken out: dark text on an even white ground, whatever the ground
 * was (a gradient, a shadow, a dark panel), and the text's polarity. The ground is estimated as the
 * mean level over a window larger than a character, twice: the second time without the pixels
 * the first estimate marked as ink, so strokes do not pull the ground towards them. The text is what
 * departs from that ground, and its polarity is the side the strongest departures fall on, so light
 * text on a navy-to-blue gradient is read as text, not the dark half of the gradient.
 */
export function flattenGround(gray: GrayImage): { image: GrayImage; lightText: boolean } {
  const { width, height } = gray;
  const values = smooth(gray);
  const side = Math.min(301, Math.max(31, Math.round(Math.min(width, height) * 0.9) | 1));
  const everything = new Uint8Array(values.length).fill(1);
  const first = windowMeans(values, everything, width, height, side).means;
  const departures = new Float32Array(values.length);
  for (let i = 0; i < values.length; i++) departures[i] = (values[i] as number) - (first[i] as number);
  // The strongest tenth of the departures: mostly ink, on the side the text lies.
  const magnitudes = departures.map(Math.abs);
  const strong = Math.max(8, percentile(magnitudes, 0.9));
  let darker = 0;
  let lighter = 0;
  for (const d of departures) {
    if (d <= -strong) darker += -d;
    else if (d >= strong) lighter += d;
  }
  const lightText = lighter > darker;
  const sign = lightText ? 1 : -1;
  const roughInk = new Uint8Array(values.length);
  for (let i = 0; i < values.length; i++) roughInk[i] = sign * (departures[i] as number) >= strong * 0.5 ? 0 : 1;
  const second = windowMeans(values, roughInk, width, height, side);
  const ink = new Float32Array(values.length);
  const headroom = new Float32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const ground = (second.filled[i] as number) >= 0.2 ? (second.means[i] as number) : (first[i] as number);
    ink[i] = Math.max(0, sign * ((values[i] as number) - ground));
    headroom[i] = lightText ? 255 - ground : ground;
  }
  // Full ink is the text's strongest departure, but never less than INK_DEPTH of the room the
  // ground leaves (to black under dark text, to white under light text): a thin stroke blurred by
  // the lens or by JPEG never reaches the ink's true level, and stretching its faint peak to full
  // ink would make a hairline face as heavy as a regular one.
  const full = Math.max(24, percentile(ink, 0.995), INK_DEPTH * percentile(headroom, 0.5));
  const data = new Uint8Array(values.length);
  for (let i = 0; i < data.length; i++) data[i] = Math.round(255 - Math.min(255, ((ink[i] as number) * 255) / full));
  return { image: { width, height, data }, lightText };
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
