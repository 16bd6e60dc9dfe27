import type { Box } from './segment.ts';

// A glyph's descriptor: the glyph scaled into a fixed square by its ink box (so size does not
// matter), softened (so blur, JPEG and a degree or two of rotation move little), then described
// three ways: where its edges run and which way (a histogram of gradient directions on a 6 × 6
// grid), where its ink lies (a 12 × 12 density map), and how heavy its strokes are.

/** Side of the square a glyph is scaled into. */
const SIDE = 48;
/** Side the ink box's longer edge is scaled to, leaving a margin for the blur. */
const INNER = 40;
const CELLS = 6;
const DIRECTIONS = 8;
const DENSITY = 12;
/** Length of the edge-direction part of a descriptor (first), then of the ink-density part. */
export const EDGE_LENGTH = CELLS * CELLS * DIRECTIONS;
export const DENSITY_LENGTH = DENSITY * DENSITY;

/** Length of a descriptor: edges, density, stroke weight and the ink box's aspect. */
export const DESCRIPTOR_LENGTH = EDGE_LENGTH + DENSITY_LENGTH + 2;

/** How much each part of a descriptor counts in a similarity (tuned on tests/bench/identify.ts). */
export const WEIGHTS = { density: 2.5, stroke: 0.7, aspect: 0.2 };

/** Ink coverage of a glyph: values 0 (ground) to 1 (ink), row by row. */
export interface GlyphInk {
  width: number;
  height: number;
  data: ArrayLike<number>;
}

/** The box of the ink (coverage ≥ 0.5) of a whole image, or null when it is empty. */
export function inkBox(ink: GlyphInk): Box | null {
  let minX = ink.width;
  let minY = ink.height;
  let maxX = -1;
  let maxY = -1;
  for (let y = 0; y < ink.height; y++) {
    for (let x = 0; x < ink.width; x++) {
      if ((ink.data[y * ink.width + x] as number) < 0.5) continue;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
  }
  return maxX < 0 ? null : { x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1 };
}

/** The source pixel each of the 4 samples of each output pixel reads along one axis, or -1 outside the box. */
function sampleSources(start: number, length: number, offset: number, scale: number, samples: number): Int32Array {
  const sources = new Int32Array(SIDE * samples);
  for (let x = 0; x < SIDE; x++) {
    for (let s = 0; s < samples; s++) {
      const source = Math.floor(start + (x + (s + 0.5) / samples - offset) / scale);
      sources[x * samples + s] = source < start || source >= start + length ? -1 : source;
    }
  }
  return sources;
}

/** The ink box scaled into the square, averaged over 4 × 4 samples a pixel. */
function normalise(ink: GlyphInk, box: Box): Float32Array {
  const out = new Float32Array(SIDE * SIDE);
  const scale = INNER / Math.max(box.width, box.height);
  const samples = 4;
  // Where each sample reads, worked out once per axis: the loop below only adds (references are
  // drawn by the thousand ahead of requests, and this was most of their cost).
  const xs = sampleSources(box.x, box.width, (SIDE - box.width * scale) / 2, scale, samples);
  const ys = sampleSources(box.y, box.height, (SIDE - box.height * scale) / 2, scale, samples);
  const data = ink.data;
  const norm = 1 / (samples * samples);
  for (let y = 0; y < SIDE; y++) {
    for (let sy = 0; sy < samples; sy++) {
      const srcY = ys[y * samples + sy] as number;
      if (srcY < 0) continue;
      const row = srcY * ink.width;
      for (let x = 0; x < SIDE; x++) {
        let total = 0;
        for (let sx = 0; sx < samples; sx++) {
          const srcX = xs[x * samples + sx] as number;
          if (srcX >= 0) total += data[row + srcX] as number;
        }
        (out[y * SIDE + x] as number) += total * norm;
      }
    }
  }
  return out;
}

/** A separable [1 4 6 4 1] / 16 blur. */
function blur(image: Float32Array): Float32Array {
  const kernel = [1 / 16, 4 / 16, 6 / 16, 4 / 16, 1 / 16];
  const pass = (src: Float32Array, dx: number, dy: number) => {
    const dst = new Float32Array(src.length);
    for (let y = 0; y < SIDE; y++) {
      for (let x = 0; x < SIDE; x++) {
        let total = 0;
        for (let k = -2; k <= 2; k++) {
          const sx = x + k * dx;
          const sy = y + k * dy;
          if (sx < 0 || sy < 0 || sx >= SIDE || sy >= SIDE) continue;
          total += (src[sy * SIDE + sx] as number) * (kernel[k + 2] as number);
        }
        dst[y * SIDE + x] = total;
      }
    }
    return dst;
  };
  return pass(pass(image, 1, 0), 0, 1);
}

/** Gradient directions on a grid of cells, each pixel shared with its nearest cells and directions. */
function edgeHistogram(image: Float32Array, out: Float32Array): void {
  const cell = SIDE / CELLS;
  for (let y = 1; y < SIDE - 1; y++) {
    for (let x = 1; x < SIDE - 1; x++) {
      const gx = (image[y * SIDE + x + 1] as number) - (image[y * SIDE + x - 1] as number);
      const gy = (image[(y + 1) * SIDE + x] as number) - (image[(y - 1) * SIDE + x] as number);
      const magnitude = Math.hypot(gx, gy);
      if (magnitude < 1e-3) continue;
      const direction = ((Math.atan2(gy, gx) + 2 * Math.PI) / (2 * Math.PI)) * DIRECTIONS;
      const d0 = Math.floor(direction) % DIRECTIONS;
      const d1 = (d0 + 1) % DIRECTIONS;
      const fd = direction - Math.floor(direction);
      const cx = (x + 0.5) / cell - 0.5;
      const cy = (y + 0.5) / cell - 0.5;
      const x0 = Math.floor(cx);
      const y0 = Math.floor(cy);
      const fx = cx - x0;
      const fy = cy - y0;
      for (const [ix, wx] of [
        [x0, 1 - fx],
        [x0 + 1, fx],
      ] as const) {
        if (ix < 0 || ix >= CELLS) continue;
        for (const [iy, wy] of [
          [y0, 1 - fy],
          [y0 + 1, fy],
        ] as const) {
          if (iy < 0 || iy >= CELLS) continue;
          const base = (iy * CELLS + ix) * DIRECTIONS;
          (out[base + d0] as number) += magnitude * wx * wy * (1 - fd);
          (out[base + d1] as number) += magnitude * wx * wy * fd;
        }
      }
    }
  }
  let norm = 0;
  for (let i = 0; i < EDGE_LENGTH; i++) norm += (out[i] as number) * (out[i] as number);
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < EDGE_LENGTH; i++) (out[i] as number) /= norm;
}

/** Ink as a share of the square on the box's longer side: the glyph's weight, whatever its size. */
function inkShare(ink: GlyphInk, box: Box): number {
  let total = 0;
  for (let y = box.y; y < box.y + box.height; y++) {
    for (let x = box.x; x < box.x + box.width; x++) total += ink.data[y * ink.width + x] as number;
  }
  return total / Math.max(box.width, box.height) ** 2;
}

/** The descriptor of the glyph inside `box` of an ink image (the whole ink when no box is given). */
export function describeGlyph(ink: GlyphInk, box?: Box): Float32Array | null {
  const bounds = box ?? inkBox(ink);
  if (!bounds || bounds.width < 2 || bounds.height < 2) return null;
  const scaled = normalise(ink, bounds);
  const weight = inkShare(ink, bounds);
  const soft = blur(scaled);
  const descriptor = new Float32Array(DESCRIPTOR_LENGTH);
  edgeHistogram(soft, descriptor);
  const block = SIDE / DENSITY;
  for (let y = 0; y < SIDE; y++) {
    for (let x = 0; x < SIDE; x++) {
      (descriptor[EDGE_LENGTH + Math.floor(y / block) * DENSITY + Math.floor(x / block)] as number) +=
        (scaled[y * SIDE + x] as number) / (block * block);
    }
  }
  descriptor[EDGE_LENGTH + DENSITY_LENGTH] = weight;
  descriptor[EDGE_LENGTH + DENSITY_LENGTH + 1] = Math.log(bounds.width / bounds.height);
  return descriptor;
}

/**
 * How alike two glyph descriptors are, at most 1 (the same glyph): the cosine of their edge
 * histograms, less the mean difference of their ink density, of their stroke weight (relative)
 * and of their aspect.
 */
export function glyphSimilarity(a: Float32Array, b: Float32Array): number {
  let edges = 0;
  for (let i = 0; i < EDGE_LENGTH; i++) edges += (a[i] as number) * (b[i] as number);
  let density = 0;
  for (let i = EDGE_LENGTH; i < EDGE_LENGTH + DENSITY_LENGTH; i++)
    density += Math.abs((a[i] as number) - (b[i] as number));
  return similarityOfParts(
    edges,
    density,
    a[EDGE_LENGTH + DENSITY_LENGTH] as number,
    b[EDGE_LENGTH + DENSITY_LENGTH] as number,
    Math.abs((a[DESCRIPTOR_LENGTH - 1] as number) - (b[DESCRIPTOR_LENGTH - 1] as number)),
  );
}

/**
 * glyphSimilarity from its parts: the edge histograms' dot product, the sum of the density maps'
 * differences, the two stroke weights and the aspects' difference (the packed references of
 * reference-store.ts are compared part by part, without unpacking them).
 */
export function similarityOfParts(edges: number, density: number, wa: number, wb: number, aspect: number): number {
  const stroke = Math.abs(Math.log(Math.max(wa, 1e-3) / Math.max(wb, 1e-3)));
  return (
    edges -
    (WEIGHTS.density * density) / DENSITY_LENGTH -
    WEIGHTS.stroke * stroke * 0.25 -
    WEIGHTS.aspect * aspect * 0.25
  );
}
