import type { GlyphInk } from './features.ts';
import type { RankedCandidate } from './matcher.ts';
import type { Box } from './segment.ts';

// The second look at the best candidates: each picture glyph compared pixel by pixel with the
// candidate's own drawing of the character, brought to the picture's size and softness.
//
// Why a second stage: the descriptor the index keeps (a 48 × 48 glyph reduced to 6 × 6 cells of
// edge directions and a 12 × 12 ink map, features.ts) is what makes a comparison with every face of
// the library cheap, but it averages away what tells close siblings apart: round or square stroke
// ends (M+ 1p and M+ Rounded 1c, Zen Kaku Gothic New and Zen Maru Gothic share one skeleton), the
// serifs and contrast of two Ming faces (Noto Serif JP, Shippori Mincho), the small adjustments of a
// face drawn from another. The faces of the few candidates the descriptor ranks first are drawn
// again, each glyph's drawing laid on the picture's glyph at the picture's own resolution (at most
// COMPARE_SIDE pixels, enough to keep a stroke end's shape), softened as much as the picture is, and
// the two ink maps correlated. The cost is a few dozen drawings a request (p50 about 35 ms on the
// full library), not a finer descriptor for every face and character of the index, which would grow
// it severalfold.

/** The picture's ink around one glyph: the coverage (0 ground, 1 ink) and the ink box within it. */
export interface GlyphCrop {
  ink: GlyphInk;
  box: Box;
}

/** A glyph of the picture for the second look: its character and its crop. */
export interface DrawnQueryGlyph {
  character: string;
  crop: GlyphCrop;
}

/** Draws a character in a face of a candidate (GlyphInk at any size), or null when the face lacks it. */
export type GlyphDrawer = (faceId: string, character: string) => GlyphInk | null;

/** How many candidates (faces drawing the sample alike count as one) get the second look. */
export const RERANK_TOP = 8;
/** The longer side of the ink box in the comparison, in pixels: a picture's larger glyphs are reduced to it. */
const COMPARE_SIDE = 48;
/** Softening tried on a drawing to match the picture's blur (Gaussian sigma, comparison pixels). */
const SIGMAS = [0, 0.5, 0.9, 1.4, 2] as const;
/** Samples per comparison pixel along each axis when reducing an image onto the comparison grid. */
const SAMPLES = 3;
/**
 * How much the second look counts against the descriptor's score in a candidate's final score
 * (tuned on tests/bench/identify.ts: 0.5 to 1 tried, the drawing alone loses small and dark pictures,
 * where a blurred drawing is as far from each candidate and the descriptor's order is the better guess).
 */
export const DRAWN_SHARE = 0.9;
/** What a glyph the face lacks counts as in the second look (as in the matcher). */
const MISSING = -0.5;

/** Where a grid reads an image along one axis: the image coordinate of grid coordinate g is `at + g * step`. */
interface Axis {
  at: number;
  step: number;
}

/** The comparison grid of one picture glyph: its size, the picture's ink on it and the ink's spread. */
interface Grid {
  width: number;
  height: number;
  picture: Float32Array;
  /** The ink's centre and spread (standard deviation) on the grid, along x and y. */
  spread: Spread;
  /** The softening that made the first candidate's drawing most like the picture, once known. */
  sigma?: number;
}

interface Spread {
  cx: number;
  cy: number;
  sx: number;
  sy: number;
}

/** The centre and spread of an image's ink (values clamped to 0–1; the faintest, grain on the ground, left out). */
function spreadOf(data: ArrayLike<number>, width: number, height: number): Spread | null {
  let mass = 0;
  let mx = 0;
  let my = 0;
  let mxx = 0;
  let myy = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const value = Math.min(1, Math.max(0, data[y * width + x] as number));
      if (value < 0.15) continue;
      const px = x + 0.5;
      const py = y + 0.5;
      mass += value;
      mx += value * px;
      my += value * py;
      mxx += value * px * px;
      myy += value * py * py;
    }
  }
  if (mass < 1) return null;
  const cx = mx / mass;
  const cy = my / mass;
  const sx = Math.sqrt(Math.max(mxx / mass - cx * cx, 0.25));
  const sy = Math.sqrt(Math.max(myy / mass - cy * cy, 0.25));
  return { cx, cy, sx, sy };
}

/** Averages an image onto a grid (each grid pixel from SAMPLES × SAMPLES samples), values clamped to 0–1. */
function onGrid(ink: GlyphInk, width: number, height: number, ax: Axis, ay: Axis): Float32Array {
  const out = new Float32Array(width * height);
  const xs = new Int32Array(width * SAMPLES);
  for (let x = 0; x < width; x++) {
    for (let s = 0; s < SAMPLES; s++) {
      const source = Math.floor(ax.at + (x + (s + 0.5) / SAMPLES) * ax.step);
      xs[x * SAMPLES + s] = source < 0 || source >= ink.width ? -1 : source;
    }
  }
  const norm = 1 / (SAMPLES * SAMPLES);
  for (let y = 0; y < height; y++) {
    for (let sy = 0; sy < SAMPLES; sy++) {
      const sourceY = Math.floor(ay.at + (y + (sy + 0.5) / SAMPLES) * ay.step);
      if (sourceY < 0 || sourceY >= ink.height) continue;
      const row = sourceY * ink.width;
      for (let x = 0; x < width; x++) {
        let total = 0;
        for (let sx = 0; sx < SAMPLES; sx++) {
          const sourceX = xs[x * SAMPLES + sx] as number;
          if (sourceX >= 0) total += Math.min(1, Math.max(0, ink.data[row + sourceX] as number));
        }
        (out[y * width + x] as number) += total * norm;
      }
    }
  }
  return out;
}

/** A separable Gaussian blur of a grid image (sigma 0: the image itself). */
function gaussian(image: Float32Array, width: number, height: number, sigma: number): Float32Array {
  if (sigma <= 0) return image;
  const radius = Math.ceil(sigma * 2.5);
  const kernel = new Float32Array(radius * 2 + 1);
  let sum = 0;
  for (let k = -radius; k <= radius; k++) {
    const value = Math.exp(-(k * k) / (2 * sigma * sigma));
    kernel[k + radius] = value;
    sum += value;
  }
  for (let k = 0; k < kernel.length; k++) (kernel[k] as number) /= sum;
  const pass = (src: Float32Array, horizontal: boolean) => {
    const dst = new Float32Array(src.length);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        let total = 0;
        for (let k = -radius; k <= radius; k++) {
          const sx = horizontal ? x + k : x;
          const sy = horizontal ? y : y + k;
          if (sx < 0 || sy < 0 || sx >= width || sy >= height) continue;
          total += (src[sy * width + sx] as number) * (kernel[k + radius] as number);
        }
        dst[y * width + x] = total;
      }
    }
    return dst;
  };
  return pass(pass(image, true), false);
}

/** Pearson's correlation of two images of one size: 1 for the same ink map, whatever its contrast. */
function correlation(a: Float32Array, b: Float32Array): number {
  const n = a.length;
  let sa = 0;
  let sb = 0;
  for (let i = 0; i < n; i++) {
    sa += a[i] as number;
    sb += b[i] as number;
  }
  const ma = sa / n;
  const mb = sb / n;
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < n; i++) {
    const da = (a[i] as number) - ma;
    const db = (b[i] as number) - mb;
    ab += da * db;
    aa += da * da;
    bb += db * db;
  }
  return aa > 0 && bb > 0 ? ab / Math.sqrt(aa * bb) : 0;
}

/** The comparison grid of a picture glyph: the crop, reduced so that its ink box is at most COMPARE_SIDE. */
function gridOf(crop: GlyphCrop): Grid | null {
  const scale = Math.min(1, COMPARE_SIDE / Math.max(crop.box.width, crop.box.height));
  const width = Math.ceil(crop.ink.width * scale);
  const height = Math.ceil(crop.ink.height * scale);
  const picture = onGrid(crop.ink, width, height, { at: 0, step: 1 / scale }, { at: 0, step: 1 / scale });
  const spread = spreadOf(picture, width, height);
  return spread ? { width, height, picture, spread } : null;
}

/**
 * How alike a picture glyph is to a drawing of its character (at most 1): the drawing laid on the
 * picture by the centre and spread of their ink (all of the ink places them, where an ink box rests
 * on the few pixels of its edges, which blur and a renderer's antialiasing move by a pixel; shifts of
 * half a pixel around that place were tried and gained nothing), softened as the picture is, and
 * the two correlated. The first call on a grid picks the softening (for the first candidate); later
 * calls keep it, so every candidate is softened alike.
 */
function drawnLikeness(grid: Grid, drawing: GlyphInk): number {
  const drawn = spreadOf(drawing.data, drawing.width, drawing.height);
  if (!drawn) return MISSING;
  const { spread } = grid;
  const stepX = drawn.sx / spread.sx;
  const stepY = drawn.sy / spread.sy;
  const sharp = onGrid(
    drawing,
    grid.width,
    grid.height,
    { at: drawn.cx - spread.cx * stepX, step: stepX },
    { at: drawn.cy - spread.cy * stepY, step: stepY },
  );
  if (grid.sigma !== undefined) return correlation(grid.picture, gaussian(sharp, grid.width, grid.height, grid.sigma));
  let best = Number.NEGATIVE_INFINITY;
  for (const sigma of SIGMAS) {
    const likeness = correlation(grid.picture, gaussian(sharp, grid.width, grid.height, sigma));
    if (likeness > best) {
      best = likeness;
      grid.sigma = sigma;
    }
  }
  return best;
}

/**
 * How alike a picture glyph is to drawings of different characters (at most 1), for weighing one
 * form of a character against another (variants.ts): the softening is chosen on the first drawing
 * (the reader's first reading) and kept for the others, as for the candidates of the second look,
 * which costs a fifth of choosing it for each and leans, if at all, towards the reading.
 */
export function likenessTo(crop: GlyphCrop): (drawing: GlyphInk) => number {
  const grid = gridOf(crop);
  return (drawing) => (grid ? drawnLikeness(grid, drawing) : MISSING);
}

/** Whether two faces drew every glyph of the sample pixel for pixel alike (the same outlines). */
function sameDrawings(a: readonly (GlyphInk | null)[], b: readonly (GlyphInk | null)[]): boolean {
  return a.every((x, i) => {
    const y = b[i];
    if (!x || !y) return x === y;
    if (x.width !== y.width || x.height !== y.height) return false;
    for (let k = 0; k < x.data.length; k++) if (x.data[k] !== y.data[k]) return false;
    return true;
  });
}

/**
 * The candidates with the first RERANK_TOP looked at again, best first. Every face of those
 * candidates draws the sample; faces that draw it pixel for pixel alike (the same outlines, as
 * 思源黑体 SC, TC and HK share for most characters) stay one candidate, since no picture can tell
 * them apart, and faces the descriptor had taken for alike but whose drawings differ become
 * candidates of their own. Each is scored by DRAWN_SHARE of the likeness of its drawings to the
 * picture's glyphs and the rest of its descriptor score. The candidates after them keep their
 * order, each scored at most as the last looked at.
 */
export function rerankByDrawing(
  ranked: readonly RankedCandidate[],
  glyphs: readonly DrawnQueryGlyph[],
  draw: GlyphDrawer,
): RankedCandidate[] {
  if (glyphs.length === 0 || ranked.length === 0) return [...ranked];
  const grids = glyphs.map((glyph) => gridOf(glyph.crop));
  const looked: RankedCandidate[] = [];
  for (const candidate of ranked.slice(0, RERANK_TOP)) {
    const alike: { faceIds: string[]; drawings: (GlyphInk | null)[]; covered: number }[] = [];
    for (const face of candidate.faceIds) {
      const drawings = glyphs.map((glyph) => draw(face, glyph.character));
      const same = alike.find((group) => sameDrawings(group.drawings, drawings));
      if (same) same.faceIds.push(face);
      else alike.push({ faceIds: [face], drawings, covered: drawings.filter(Boolean).length });
    }
    for (const group of alike) {
      let total = 0;
      group.drawings.forEach((drawing, i) => {
        const grid = grids[i];
        if (grid) total += drawing ? drawnLikeness(grid, drawing) : MISSING;
      });
      const drawn = total / glyphs.length;
      looked.push({
        faceIds: group.faceIds,
        covered: group.covered,
        drawn,
        score: (1 - DRAWN_SHARE) * candidate.score + DRAWN_SHARE * drawn,
      });
    }
  }
  looked.sort((a, b) => b.score - a.score);
  const floor = looked[looked.length - 1]?.score ?? 0;
  const rest = ranked.slice(RERANK_TOP).map((candidate) => ({ ...candidate, score: Math.min(candidate.score, floor) }));
  return [...looked, ...rest];
}
