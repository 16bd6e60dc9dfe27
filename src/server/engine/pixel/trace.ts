/** A bitmap of one glyph: `width × height` cells, row by row from the top, 1 = ink. */
export interface Bitmap {
  width: number;
  height: number;
  bits: Uint8Array;
}

/** A point on the pixel grid, y counted up from the bitmap's bottom edge. */
export interface GridPoint {
  x: number;
  y: number;
}

// Directions of boundary edges, in y-up grid coordinates: right, down, left, up.
const DX = [1, 0, -1, 0];
const DY = [0, -1, 0, 1];

/**
 * Traces a bitmap into the merged rectilinear outlines of its ink: one contour per connected
 * region's boundary and one per hole, corners only (no point in the middle of a straight run).
 * Every contour keeps the ink on its right, so outer contours run clockwise and holes
 * counter-clockwise (y up), as TrueType wants. Pixels that touch only at a corner belong to
 * separate contours: at such a corner the trace always turns right, hugging the pixel it came from.
 *
 * Written here rather than taken from a library: potrace-style tracers smooth and fit curves, and
 * the pixel font needs the exact cell edges.
 */
export function traceBitmap(bitmap: Bitmap): GridPoint[][] {
  const { width, height, bits } = bitmap;
  const ink = (x: number, row: number) =>
    x >= 0 && x < width && row >= 0 && row < height && bits[row * width + x] === 1;
  // Outgoing boundary edges per grid vertex (key y * (width + 1) + x), as direction indexes.
  const stride = width + 1;
  const outgoing = new Map<number, number[]>();
  const add = (x: number, y: number, direction: number) => {
    const key = y * stride + x;
    const list = outgoing.get(key);
    if (list) list.push(direction);
    else outgoing.set(key, [direction]);
  };
  for (let row = 0; row < height; row++) {
    const top = height - row; // y of the cell's upper edge
    for (let x = 0; x < width; x++) {
      if (!ink(x, row)) continue;
      if (!ink(x, row - 1)) add(x, top, 0); // upper edge, left to right
      if (!ink(x + 1, row)) add(x + 1, top, 1); // right edge, downwards
      if (!ink(x, row + 1)) add(x + 1, top - 1, 2); // lower edge, right to left
      if (!ink(x - 1, row)) add(x, top - 1, 3); // left edge, upwards
    }
  }

  const contours: GridPoint[][] = [];
  for (const [startKey, starts] of outgoing) {
    while (starts.length > 0) {
      // The first edge stays in its vertex's list until the trace comes back and takes it again:
      // that is where the contour closes.
      const first = starts[starts.length - 1] as number;
      const startX = startKey % stride;
      const startY = Math.floor(startKey / stride);
      const points: GridPoint[] = [];
      let x = startX;
      let y = startY;
      let direction = first;
      for (;;) {
        x += DX[direction] as number;
        y += DY[direction] as number;
        const choices = outgoing.get(y * stride + x) as number[];
        // Prefer a right turn, then straight on, then a left turn (there is never a U-turn).
        let pick = choices.indexOf((direction + 1) & 3);
        if (pick < 0) pick = choices.indexOf(direction);
        if (pick < 0) pick = choices.indexOf((direction + 3) & 3);
        const next = choices.splice(pick, 1)[0] as number;
        if (next !== direction) points.push({ x, y });
        if (x === startX && y === startY && next === first) break;
        direction = next;
      }
      contours.push(points);
    }
  }
  return contours;
}

/** The signed area of a contour (positive for counter-clockwise, y up). */
export function signedArea(points: readonly GridPoint[]): number {
  let area = 0;
  for (let i = 0; i < points.length; i++) {
    const a = points[i] as GridPoint;
    const b = points[(i + 1) % points.length] as GridPoint;
    area += a.x * b.y - b.x * a.y;
  }
  return area / 2;
}
