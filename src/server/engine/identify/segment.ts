import type { GrayImage, InkMask } from './binarise.ts';

// Glyphs from ink (SPEC §7 workflow task 125, unidentified glyphs): the picture's skew, its text
// lines, and one box per character, keeping CJK characters made of separate parts (川, 小, 儿) whole.

/** A rectangle in pixels. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A line of text and its characters, left to right. */
export interface TextLine {
  box: Box;
  glyphs: Box[];
}

/** Connected parts of the ink (8-connected) with their pixel counts. */
export function inkParts(mask: InkMask): (Box & { area: number })[] {
  const { width, height, data } = mask;
  const seen = new Uint8Array(width * height);
  const parts: (Box & { area: number })[] = [];
  const stack: number[] = [];
  for (let start = 0; start < data.length; start++) {
    if (!data[start] || seen[start]) continue;
    let minX = width;
    let minY = height;
    let maxX = -1;
    let maxY = -1;
    let area = 0;
    stack.push(start);
    seen[start] = 1;
    while (stack.length) {
      const i = stack.pop() as number;
      const x = i % width;
      const y = (i - x) / width;
      area++;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= width) continue;
          const j = ny * width + nx;
          if (data[j] && !seen[j]) {
            seen[j] = 1;
            stack.push(j);
          }
        }
      }
    }
    parts.push({ x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1, area });
  }
  return parts;
}

/** The mask without specks: parts too small to be a stroke (noise, dust, JPEG blocks). */
export function withoutSpecks(mask: InkMask, minArea = 4): InkMask {
  const parts = inkParts(mask);
  const tallest = parts.reduce((most, part) => Math.max(most, part.height), 0);
  // Specks are judged against the text's size: a dot of 2 × 2 is ink in 12 px text, noise in 90 px text.
  const floor = Math.max(minArea, Math.round((tallest / 40) ** 2));
  const data = mask.data.slice();
  for (const part of parts) {
    if (part.area >= floor) continue;
    for (let y = part.y; y < part.y + part.height; y++) {
      for (let x = part.x; x < part.x + part.width; x++) data[y * mask.width + x] = 0;
    }
  }
  // Clearing a speck's box may clear a neighbour's pixels inside it; put back what is not a speck.
  for (const part of parts) {
    if (part.area < floor) continue;
    for (let y = part.y; y < part.y + part.height; y++) {
      for (let x = part.x; x < part.x + part.width; x++) {
        const i = y * mask.width + x;
        if (mask.data[i]) data[i] = 1;
      }
    }
  }
  return { width: mask.width, height: mask.height, data };
}

/** The share of a side a line along it covers with ink to be taken for the edge of a panel. */
const EDGE_LINE = 0.5;

/**
 * The mask without the picture's edges: a part that runs along a side of the picture, thin and
 * nearly as long as that side, is the edge of a screen, a panel or a crop that took in a sliver of
 * what lay beside it, not a stroke; left in, it would make one line of the whole picture.
 */
export function withoutEdges(mask: InkMask): InkMask {
  const { width, height } = mask;
  const data = mask.data.slice();
  // A rotated or cropped panel often leaves a line along the side within its outer few pixels, with
  // grain joined to it that makes its part too wide to be told from text by its box: the line itself
  // is a column (a row) near the side that is ink over most of the picture's height (width).
  const bandX = Math.max(2, Math.round(width * 0.02));
  const bandY = Math.max(2, Math.round(height * 0.02));
  for (let x = 0; x < width; x++) {
    if (x >= bandX && x < width - bandX) continue;
    let ink = 0;
    for (let y = 0; y < height; y++) ink += data[y * width + x] as number;
    if (ink >= height * EDGE_LINE) for (let y = 0; y < height; y++) data[y * width + x] = 0;
  }
  for (let y = 0; y < height; y++) {
    if (y >= bandY && y < height - bandY) continue;
    let ink = 0;
    for (let x = 0; x < width; x++) ink += data[y * width + x] as number;
    if (ink >= width * EDGE_LINE) data.fill(0, y * width, (y + 1) * width);
  }
  for (const part of inkParts({ width, height, data })) {
    const touches = part.x === 0 || part.y === 0 || part.x + part.width === width || part.y + part.height === height;
    // What is left of such a line: a part wholly within the outer band of a side.
    const inBand =
      part.x + part.width <= bandX ||
      part.x >= width - bandX ||
      part.y + part.height <= bandY ||
      part.y >= height - bandY;
    if (!touches && !inBand) continue;
    const upright = part.height >= height * 0.9 && part.width <= Math.max(3, width * 0.06);
    const across = part.width >= width * 0.9 && part.height <= Math.max(3, height * 0.06);
    if (!upright && !across && !inBand) continue;
    for (let y = part.y; y < part.y + part.height; y++) {
      for (let x = part.x; x < part.x + part.width; x++) data[y * width + x] = 0;
    }
  }
  return { width, height, data };
}

/**
 * The skew of horizontal text in degrees (positive when lines fall to the right), the angle at
 * which the ink's row profile is sharpest: lines of text then fall into few rows.
 */
export function estimateSkew(mask: InkMask, limit = 6): number {
  const { width, height, data } = mask;
  const points: number[] = [];
  let total = 0;
  for (const v of data) total += v;
  const step = Math.max(1, Math.floor(total / 30_000));
  let n = 0;
  for (let i = 0; i < data.length; i++) {
    if (!data[i]) continue;
    if (n++ % step === 0) points.push(i % width, Math.floor(i / width));
  }
  if (points.length < 40) return 0;
  const bins = new Float64Array(height + width + 2);
  const sharpness = (degrees: number) => {
    const slope = Math.tan((degrees * Math.PI) / 180);
    bins.fill(0);
    const offset = width * Math.abs(slope);
    for (let p = 0; p < points.length; p += 2) {
      const row = Math.round((points[p + 1] as number) - (points[p] as number) * slope + offset);
      if (row >= 0 && row < bins.length) (bins[row] as number)++;
    }
    let score = 0;
    for (const count of bins) score += count * count;
    return score;
  };
  let best = 0;
  const level = sharpness(0);
  let bestScore = level;
  for (let a = -limit; a <= limit; a += 0.5) {
    const score = sharpness(a);
    if (score > bestScore * 1.0001) {
      best = a;
      bestScore = score;
    }
  }
  const coarse = best;
  for (let a = coarse - 0.5; a <= coarse + 0.5; a += 0.1) {
    const score = sharpness(a);
    if (score > bestScore * 1.0001) {
      best = a;
      bestScore = score;
    }
  }
  // A short line is nearly as sharp a little off level; turning a level picture would only blur it.
  if (bestScore < level * 1.03) return 0;
  return Math.round(best * 10) / 10;
}

/** The median of the border pixels: the ground colour that a rotation fills its corners with. */
function borderLevel(gray: GrayImage): number {
  const { width, height, data } = gray;
  const values: number[] = [];
  for (let x = 0; x < width; x++) values.push(data[x] as number, data[(height - 1) * width + x] as number);
  for (let y = 0; y < height; y++) values.push(data[y * width] as number, data[y * width + width - 1] as number);
  values.sort((a, b) => a - b);
  return values[values.length >> 1] ?? 255;
}

/** The picture turned by `degrees` about its centre (bilinear), same size, corners in the ground colour. */
export function rotateGray(gray: GrayImage, degrees: number): GrayImage {
  if (degrees === 0) return gray;
  const { width, height, data } = gray;
  const out = new Uint8Array(width * height);
  const fill = borderLevel(gray);
  const angle = (degrees * Math.PI) / 180;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const cx = (width - 1) / 2;
  const cy = (height - 1) / 2;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const sx = cos * (x - cx) - sin * (y - cy) + cx;
      const sy = sin * (x - cx) + cos * (y - cy) + cy;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      if (x0 < 0 || y0 < 0 || x0 >= width - 1 || y0 >= height - 1) {
        out[y * width + x] = fill;
        continue;
      }
      const fx = sx - x0;
      const fy = sy - y0;
      const i = y0 * width + x0;
      const top = (data[i] as number) * (1 - fx) + (data[i + 1] as number) * fx;
      const bottom = (data[i + width] as number) * (1 - fx) + (data[i + width + 1] as number) * fx;
      out[y * width + x] = Math.round(top * (1 - fy) + bottom * fy);
    }
  }
  return { width, height, data: out };
}

/** The item at an index the caller knows to be in range. */
function at<T>(items: readonly T[], index: number): T {
  return items[index] as T;
}

/** Runs of indices whose count is positive: [start, end) pairs. */
function runsOf(counts: ArrayLike<number>): [number, number][] {
  const runs: [number, number][] = [];
  let start = -1;
  for (let i = 0; i <= counts.length; i++) {
    const on = i < counts.length && (counts[i] as number) > 0;
    if (on && start < 0) start = i;
    if (!on && start >= 0) {
      runs.push([start, i]);
      start = -1;
    }
  }
  return runs;
}

/** Bands of rows holding lines of text; a band much thinner than the others joins its nearest neighbour. */
function lineBands(mask: InkMask): [number, number][] {
  const rows = new Uint32Array(mask.height);
  for (let y = 0; y < mask.height; y++) {
    let count = 0;
    for (let x = 0; x < mask.width; x++) count += mask.data[y * mask.width + x] as number;
    rows[y] = count;
  }
  const bands = runsOf(rows);
  if (bands.length < 2) return bands;
  const heights = bands.map(([a, b]) => b - a).sort((a, b) => a - b);
  const tall = heights.filter((h) => h >= (heights[heights.length - 1] as number) * 0.5);
  const typical = tall[tall.length >> 1] ?? 1;
  let merged = true;
  while (merged && bands.length > 1) {
    merged = false;
    for (let i = 0; i < bands.length; i++) {
      const [a, b] = at(bands, i);
      if (b - a >= typical * 0.6) continue;
      // A thin band (the strokes of 二 or 三 alone, an accent) joins the neighbour it fits with.
      const options = [i - 1, i + 1].filter((j) => j >= 0 && j < bands.length);
      let bestJ = -1;
      let bestGap = Number.POSITIVE_INFINITY;
      for (const j of options) {
        const lo = Math.min(a, at(bands, j)[0]);
        const hi = Math.max(b, at(bands, j)[1]);
        const gap = j < i ? a - at(bands, j)[1] : at(bands, j)[0] - b;
        if (hi - lo <= typical * 1.25 && gap < bestGap) {
          bestGap = gap;
          bestJ = j;
        }
      }
      if (bestJ < 0) continue;
      const lo = Math.min(a, at(bands, bestJ)[0]);
      const hi = Math.max(b, at(bands, bestJ)[1]);
      bands.splice(Math.min(i, bestJ), 2, [lo, hi]);
      merged = true;
      break;
    }
  }
  return bands;
}

/**
 * Cuts a line's column runs into characters. CJK characters are about as wide as the line is
 * tall, so the cut is chosen (dynamic programming over the gaps between runs) to make pieces
 * close to that width and to cut where the gaps are widest; a part narrower than a character
 * joins its neighbours instead of standing alone.
 */
function cutLine(runs: [number, number][], lineHeight: number): [number, number][] {
  const n = runs.length;
  const cost = new Float64Array(n + 1).fill(Number.POSITIVE_INFINITY);
  const from = new Int32Array(n + 1);
  cost[0] = 0;
  for (let j = 1; j <= n; j++) {
    for (let i = j - 1; i >= 0; i--) {
      const width = at(runs, j - 1)[1] - at(runs, i)[0];
      const ratio = width / lineHeight;
      if (ratio > 1.2 && i < j - 1) break;
      const gapBefore = i > 0 ? (at(runs, i)[0] - at(runs, i - 1)[1]) / lineHeight : 1;
      const shape = ratio > 1.05 ? (ratio - 1.05) * 8 : (1 - Math.min(1, ratio / 0.85)) ** 2;
      const total = (cost[i] as number) + shape + 0.15 - Math.min(gapBefore, 0.5);
      if (total < (cost[j] as number)) {
        cost[j] = total;
        from[j] = i;
      }
    }
  }
  const pieces: [number, number][] = [];
  for (let j = n; j > 0; j = from[j] as number) pieces.push([at(runs, from[j] as number)[0], at(runs, j - 1)[1]]);
  return pieces.reverse();
}

/** A column run at least this many line heights wide holds more than one character. */
const WIDE_RUN = 1.6;

/**
 * Column runs with the runs of touching characters split: small or tightly set text (24 px 像庭)
 * leaves no blank column between two characters, and a run two characters wide would be one box.
 * Such a run is cut into as many pieces as line heights it spans, each cut at the column with the
 * least ink within a quarter of a line height of where an even division puts it.
 */
function splitTouching(runs: [number, number][], columns: Uint32Array, lineHeight: number): [number, number][] {
  const out: [number, number][] = [];
  for (const [start, end] of runs) {
    const width = end - start;
    const pieces = Math.round(width / lineHeight);
    if (width < lineHeight * WIDE_RUN || pieces < 2) {
      out.push([start, end]);
      continue;
    }
    let from = start;
    const reach = Math.max(1, Math.round(lineHeight / 4));
    for (let k = 1; k < pieces; k++) {
      const expected = Math.round(start + (k * width) / pieces);
      let cut = expected;
      for (let x = Math.max(from + 1, expected - reach); x <= Math.min(end - 1, expected + reach); x++) {
        const fewer = (columns[x] as number) < (columns[cut] as number);
        const asFewCloser =
          (columns[x] as number) === (columns[cut] as number) && Math.abs(x - expected) < Math.abs(cut - expected);
        if (fewer || asFewCloser) cut = x;
      }
      out.push([from, cut]);
      from = cut;
    }
    out.push([from, end]);
  }
  return out;
}

/** The box of the ink inside a rectangle, or null when it holds none. */
function tighten(mask: InkMask, x0: number, x1: number, y0: number, y1: number): Box | null {
  let minX = x1;
  let maxX = x0 - 1;
  let minY = y1;
  let maxY = y0 - 1;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      if (!mask.data[y * mask.width + x]) continue;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
  }
  if (maxX < minX) return null;
  return { x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1 };
}

/** The lines of horizontal text in a (deskewed, speck-free) mask, each cut into character boxes. */
export function findLines(mask: InkMask): TextLine[] {
  const lines: TextLine[] = [];
  for (const [top, bottom] of lineBands(mask)) {
    const columns = new Uint32Array(mask.width);
    for (let y = top; y < bottom; y++) {
      for (let x = 0; x < mask.width; x++) (columns[x] as number) += mask.data[y * mask.width + x] as number;
    }
    const lineHeight = bottom - top;
    const runs = splitTouching(runsOf(columns), columns, lineHeight);
    if (runs.length === 0) continue;
    const glyphs: Box[] = [];
    for (const [x0, x1] of cutLine(runs, lineHeight)) {
      const box = tighten(mask, x0, x1, top, bottom);
      if (box) glyphs.push(box);
    }
    const x = glyphs[0]?.x ?? 0;
    const last = glyphs[glyphs.length - 1];
    lines.push({ box: { x, y: top, width: last ? last.x + last.width - x : 0, height: lineHeight }, glyphs });
  }
  return lines;
}
