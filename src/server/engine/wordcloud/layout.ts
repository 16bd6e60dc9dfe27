import { CLOUD_ORIENTATIONS, type CloudOrientation } from '../../../contract/word-cloud.ts';
import { seededRandom } from '../../../lib/seeded-random.ts';

// The word-cloud layout: the product's core, written here rather than taken from d3-cloud or
// wordcloud2.js because neither places words inside an arbitrary shape on the server, and their
// collision test is a word's bounding box or a coarse bitmap of a canvas we do not have. Words are
// placed strongest first along an Archimedean spiral, each tested cell by cell against a grid of
// what is taken: outside the shape, or ink of a word already placed (grown by one cell, so no two
// words touch). A word that finds no room is tried smaller, then left out.

/** Where words may go, at canvas resolution: 1 for a pixel inside the shape. */
export interface Mask {
  width: number;
  height: number;
  inside: Uint8Array;
}

export const ORIENTATIONS = CLOUD_ORIENTATIONS;
export type Orientation = CloudOrientation;

/** A word as the layout draws it: its text, size in px, angle in degrees, and whether it runs top to bottom. */
export interface WordForm {
  text: string;
  size: number;
  angle: number;
  /** Characters stacked upright, top to bottom (竖排), instead of turned. */
  vertical: boolean;
}

/**
 * A word's ink as an alpha image, drawn at some scale with the word's anchor at pixel (−left, −top)
 * of the image.
 */
export interface Ink {
  left: number;
  top: number;
  width: number;
  height: number;
  alpha: Uint8Array;
}

/** A placed word: its form and its anchor (the centre of its baseline) on the canvas. */
export interface PlacedWord extends WordForm {
  weight: number;
  x: number;
  y: number;
}

export interface LayoutOptions {
  orientation: Orientation;
  /** Quarter-turned Chinese words are stacked upright instead (竖排). */
  verticalText: boolean;
  /** Seed of the random choices, so the same request gives the same cloud. */
  seed: number;
  /** Draws a word's ink at a scale (Skia in draw.ts); the layout only reads the alpha. */
  ink: (form: WordForm, scale: number) => Ink;
}

export interface LayoutResult {
  placed: PlacedWord[];
  /** Words that found no room even at the smallest size. */
  dropped: string[];
  /** Grid cell size in canvas pixels. */
  cell: number;
}

/** Alpha a pixel needs to count as ink. */
const INK_ALPHA = 24;
/** Each smaller try is this much of the last. */
const SHRINK = 0.82;
/** Share of the shape the words are sized to cover. */
const FILL = 0.72;
/** Size words are measured at before the layout (small: drawing text is most of the work). */
const PROBE = 48;
/** Words placed from the shape's centre; later ones start at a random free cell. */
const CENTRED_WORDS = 8;
/** Layouts tried a size larger when every word fit, each GROW times the last, until COVER is reached. */
const GROW_TRIES = 3;
const GROW = 1.18;
const COVER = 0.65;

const HAN = /\p{Script=Han}/u;

/** The grid of taken cells: 1 where the shape is not, or where a word already is. */
class Board {
  readonly cols: number;
  readonly rows: number;
  readonly taken: Uint8Array;
  free = 0;
  centreX = 0;
  centreY = 0;
  /** The shape's extent in cells. */
  spanX = 0;
  spanY = 0;

  readonly cell: number;

  /** A copy to place words on, leaving this board as it was. */
  clone(): Board {
    const copy = Object.create(Board.prototype) as Board;
    Object.assign(copy, this, { taken: this.taken.slice() });
    return copy;
  }

  constructor(mask: Mask, cell: number) {
    this.cell = cell;
    this.cols = Math.floor(mask.width / cell);
    this.rows = Math.floor(mask.height / cell);
    this.taken = new Uint8Array(this.cols * this.rows).fill(1);
    let sumX = 0;
    let sumY = 0;
    let minX = this.cols;
    let maxX = 0;
    let minY = this.rows;
    let maxY = 0;
    for (let gy = 0; gy < this.rows; gy++) {
      for (let gx = 0; gx < this.cols; gx++) {
        // A cell is free only when every pixel of it is inside the shape.
        let inside = true;
        for (let py = gy * cell; inside && py < (gy + 1) * cell; py++) {
          const row = py * mask.width;
          for (let px = gx * cell; px < (gx + 1) * cell; px++) {
            if (!mask.inside[row + px]) {
              inside = false;
              break;
            }
          }
        }
        if (!inside) continue;
        this.taken[gy * this.cols + gx] = 0;
        this.free++;
        sumX += gx;
        sumY += gy;
        minX = Math.min(minX, gx);
        maxX = Math.max(maxX, gx);
        minY = Math.min(minY, gy);
        maxY = Math.max(maxY, gy);
      }
    }
    if (this.free > 0) {
      this.centreX = sumX / this.free;
      this.centreY = sumY / this.free;
      this.spanX = maxX - minX + 1;
      this.spanY = maxY - minY + 1;
    }
  }
}

/** A word's ink as cells: `cells` are the offsets of ink cells from the sprite's top-left cell. */
interface Sprite {
  cols: number;
  rows: number;
  /** Ink cells as x + y * cols of the sprite. */
  cells: Int32Array;
  /** Ink cells grown by one cell on every side, as (x, y) pairs, which placing marks taken. */
  halo: Int32Array;
  left: number;
  top: number;
}

function spriteOf(ink: Ink): Sprite {
  // The ink is drawn at one pixel per cell; a cell is ink when any of the word covers it enough.
  const cols = ink.width;
  const rows = ink.height;
  const cells: number[] = [];
  const halo = new Set<number>();
  const stride = cols + 2;
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      if ((ink.alpha[y * cols + x] as number) < INK_ALPHA) continue;
      cells.push(x + y * cols);
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) halo.add(x + 1 + dx + (y + 1 + dy) * stride);
    }
  }
  // Cells from the middle out: a collision is usually found in the first few tests.
  const cx = cols / 2;
  const cy = rows / 2;
  cells.sort((a, b) => {
    const ax = (a % cols) - cx;
    const ay = Math.floor(a / cols) - cy;
    const bx = (b % cols) - cx;
    const by = Math.floor(b / cols) - cy;
    return ax * ax + ay * ay - (bx * bx + by * by);
  });
  const haloPairs = new Int32Array(halo.size * 2);
  let i = 0;
  for (const index of halo) {
    haloPairs[i++] = (index % stride) - 1;
    haloPairs[i++] = Math.floor(index / stride) - 1;
  }
  return { cols, rows, cells: Int32Array.from(cells), halo: haloPairs, left: ink.left, top: ink.top };
}

/** Whether the sprite fits with its top-left cell at (gx, gy). */
function fits(board: Board, sprite: Sprite, gx: number, gy: number): boolean {
  if (gx < 0 || gy < 0 || gx + sprite.cols > board.cols || gy + sprite.rows > board.rows) return false;
  const { taken, cols } = board;
  const base = gy * cols + gx;
  const { cells } = sprite;
  const spriteCols = sprite.cols;
  for (let i = 0; i < cells.length; i++) {
    const c = cells[i] as number;
    const y = (c / spriteCols) | 0;
    if (taken[base + y * cols + (c - y * spriteCols)]) return false;
  }
  return true;
}

function mark(board: Board, sprite: Sprite, gx: number, gy: number): void {
  const { halo } = sprite;
  for (let i = 0; i < halo.length; i += 2) {
    const x = gx + (halo[i] as number);
    const y = gy + (halo[i + 1] as number);
    if (x < 0 || y < 0 || x >= board.cols || y >= board.rows) continue;
    const index = y * board.cols + x;
    if (!board.taken[index]) board.free--;
    board.taken[index] = 1;
  }
}

/**
 * The steps of an Archimedean spiral (arms one cell apart, r = θ / 2π) from the centre out, one
 * cell at a time, as (dx, dy) pairs: computed once, long enough to cross any board, walked for
 * every word.
 */
let spiral: Int16Array | undefined;
function spiralSteps(): Int16Array {
  if (spiral) return spiral;
  const maxRadius = Math.SQRT2 * SPIRAL_SPAN;
  const steps: number[] = [0, 0];
  let theta = 1;
  let lastX = 0;
  let lastY = 0;
  for (;;) {
    const r = theta / (2 * Math.PI);
    if (r > maxRadius) break;
    const x = Math.round(r * Math.cos(theta));
    const y = Math.round(r * Math.sin(theta));
    theta += 1 / Math.max(1, r);
    if (x === lastX && y === lastY) continue;
    lastX = x;
    lastY = y;
    steps.push(x, y);
  }
  spiral = Int16Array.from(steps);
  return spiral;
}

/** The first place along the spiral from (x0, y0) where the sprite fits, or undefined. */
function findPlace(board: Board, sprite: Sprite, x0: number, y0: number): [number, number] | undefined {
  // The spiral runs through the sprite's centre; the place is its top-left cell.
  const ox = Math.round(x0 - sprite.cols / 2);
  const oy = Math.round(y0 - sprite.rows / 2);
  const steps = spiralSteps();
  // Past the farthest corner of the board the spiral finds nothing more.
  const reach = Math.max(
    Math.hypot(ox, oy),
    Math.hypot(board.cols - ox, oy),
    Math.hypot(ox, board.rows - oy),
    Math.hypot(board.cols - ox, board.rows - oy),
  );
  const end = Math.min(steps.length, 2 * Math.ceil(Math.PI * (reach + 2) * (reach + 2)));
  for (let i = 0; i < end; i += 2) {
    const gx = ox + (steps[i] as number);
    const gy = oy + (steps[i + 1] as number);
    if (fits(board, sprite, gx, gy)) return [gx, gy];
  }
  return undefined;
}

/** Most cells a board spans each way. */
const SPIRAL_SPAN = 500;

/** The grid cell size for a canvas: cells of a few pixels keep the board within 500 × 500. */
export function cellSizeFor(width: number, height: number): number {
  return Math.max(1, Math.ceil(Math.max(width, height) / SPIRAL_SPAN));
}

/**
 * Places the words (strongest first) inside the mask. Sizes follow the weights, scaled so the
 * words (with the gap around each) would cover FILL of the shape; a word that fits nowhere is tried at SHRINK of its size
 * until it is smaller than the smallest size, then dropped.
 */
export function layoutWords(
  words: ReadonlyArray<{ text: string; weight: number }>,
  mask: Mask,
  options: LayoutOptions,
): LayoutResult {
  const cell = cellSizeFor(mask.width, mask.height);
  const board = new Board(mask, cell);
  const random = seededRandom(options.seed);
  if (board.free === 0) return { placed: [], dropped: words.map((word) => word.text), cell };

  const minSize = Math.max(9, Math.round(Math.min(mask.width, mask.height) / 100));
  const relative = (weight: number) => 0.22 + 0.78 * Math.max(0, Math.min(1, weight)) ** 0.6;
  // Each word's cells (with its halo) measured at PROBE px, so the sizes can be scaled to fill the
  // shape: a word's cells grow with the square of its size.
  const turns = words.map((word) => chooseTurn(word.text, options, random));
  const probes = words.map((word, i) => {
    const turn = turns[i] ?? { angle: 0, vertical: false };
    return spriteOf(options.ink({ text: word.text, size: PROBE, ...turn }, 1 / cell));
  });
  const need = words.reduce(
    (sum, word, i) => sum + relative(word.weight) ** 2 * ((probes[i]?.halo.length ?? 0) / 2),
    0,
  );
  const filling = PROBE * Math.sqrt((FILL * board.free) / Math.max(need, 1e-6));
  // The strongest word must fit across the shape.
  let widest = Number.POSITIVE_INFINITY;
  const [first] = probes;
  if (first && words[0]) {
    widest = (Math.min(board.spanX / first.cols, board.spanY / first.rows) * PROBE * 0.9) / relative(words[0].weight);
  }
  const sizing = { minSize, relative, turns, cell };

  // A few words leave much of the shape empty at the first sizes: while every word finds room and
  // the shape is less than half covered, the words are laid out again a size larger.
  let scale = Math.min(filling, widest);
  let best = placeAll(words, board.clone(), scale, options, sizing);
  for (let grow = 0; grow < GROW_TRIES && best.dropped.length === 0 && best.covered < COVER; grow++) {
    if (scale >= widest) break;
    scale = Math.min(widest, scale * GROW);
    const larger = placeAll(words, board.clone(), scale, options, sizing);
    if (larger.dropped.length > 0) break;
    best = larger;
  }
  return { placed: best.placed, dropped: best.dropped, cell };
}

/** Places every word at `scale` on a board of its own; answers what fit and the share now covered. */
function placeAll(
  words: ReadonlyArray<{ text: string; weight: number }>,
  board: Board,
  scale: number,
  options: LayoutOptions,
  sizing: {
    minSize: number;
    relative: (weight: number) => number;
    turns: ReadonlyArray<{ angle: number; vertical: boolean }>;
    cell: number;
  },
): { placed: PlacedWord[]; dropped: string[]; covered: number } {
  const { minSize, relative, turns, cell } = sizing;
  const random = seededRandom(options.seed ^ 0x9e3779b9);
  const freeAtStart = board.free;
  const placed: PlacedWord[] = [];
  const dropped: string[] = [];
  // Where a word of n characters failed at some size, a longer word of the same turn fails there
  // too (nearly always): later words start below it instead of scanning the board again.
  const failedAt = new Map<string, number[]>();
  const ceilingFor = (key: string, length: number) => {
    const sizes = failedAt.get(key) ?? [];
    let ceiling = Number.POSITIVE_INFINITY;
    for (let l = 1; l <= length && l < sizes.length; l++) ceiling = Math.min(ceiling, sizes[l] ?? ceiling);
    return ceiling;
  };

  for (const [index, word] of words.entries()) {
    const turn = turns[index] as { angle: number; vertical: boolean };
    const key = `${turn.angle}:${turn.vertical}`;
    const length = [...word.text].length;
    const ceiling = ceilingFor(key, length);
    let size = Math.max(minSize, Math.round(scale * relative(word.weight)));
    if (size >= ceiling) size = Math.floor(ceiling * SHRINK);
    const [startX, startY] = index < CENTRED_WORDS ? nearCentre(board, random) : randomFreeCell(board, random);
    let done = false;
    while (!done && size >= minSize) {
      const form: WordForm = { text: word.text, size, ...turn };
      const sprite = spriteOf(options.ink(form, 1 / cell));
      if (sprite.cells.length > 0 && sprite.cells.length <= board.free) {
        const place = findPlace(board, sprite, startX, startY);
        if (place) {
          mark(board, sprite, place[0], place[1]);
          // The anchor sits (−left, −top) cells from the sprite's top-left cell.
          placed.push({
            ...form,
            weight: word.weight,
            x: (place[0] - sprite.left) * cell,
            y: (place[1] - sprite.top) * cell,
          });
          done = true;
          break;
        }
      }
      const sizes = failedAt.get(key) ?? [];
      sizes[length] = Math.min(sizes[length] ?? Number.POSITIVE_INFINITY, size);
      failedAt.set(key, sizes);
      const smaller = Math.floor(size * SHRINK);
      size = smaller < minSize && size > minSize ? minSize : smaller;
    }
    if (!done) dropped.push(word.text);
  }
  return { placed, dropped, covered: 1 - board.free / Math.max(1, freeAtStart) };
}

/** A start near the shape's centre, so the strongest words sit in the middle. */
function nearCentre(board: Board, random: () => number): [number, number] {
  const jitter = Math.min(board.spanX, board.spanY) * 0.12;
  return [board.centreX + (random() - 0.5) * jitter, board.centreY + (random() - 0.5) * jitter];
}

/**
 * A random free cell, so later words fill the shape evenly and do not walk out through the taken
 * middle first; the centre when none turns up in a few tries.
 */
function randomFreeCell(board: Board, random: () => number): [number, number] {
  for (let i = 0; i < 64; i++) {
    const x = Math.floor(random() * board.cols);
    const y = Math.floor(random() * board.rows);
    if (!board.taken[y * board.cols + x]) return [x, y];
  }
  return nearCentre(board, random);
}

function chooseTurn(text: string, options: LayoutOptions, random: () => number): { angle: number; vertical: boolean } {
  switch (options.orientation) {
    case 'horizontal':
      return { angle: 0, vertical: false };
    case 'mixed': {
      if (random() >= 0.35) return { angle: 0, vertical: false };
      // Chinese stands upright in a column; Latin turns a quarter.
      if (options.verticalText && [...text].every((ch) => HAN.test(ch))) return { angle: 0, vertical: true };
      return { angle: -90, vertical: false };
    }
    case 'free':
      return { angle: Math.round((random() * 120 - 60) / 5) * 5, vertical: false };
  }
}
