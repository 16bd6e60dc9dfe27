import { describe, expect, test } from 'vitest';
import { type Bitmap, type GridPoint, signedArea, traceBitmap } from '../../src/server/engine/pixel/trace.ts';

/** A bitmap from rows of '#' (ink) and '.' (paper), top row first. */
function bitmap(...rows: string[]): Bitmap {
  const width = rows[0]?.length ?? 0;
  return { width, height: rows.length, bits: Uint8Array.from(rows.join('').split(''), (ch) => (ch === '#' ? 1 : 0)) };
}

/** The non-zero winding number of the contours around a point. */
function winding(contours: GridPoint[][], px: number, py: number): number {
  let wind = 0;
  for (const points of contours) {
    for (let i = 0; i < points.length; i++) {
      const a = points[i] as GridPoint;
      const b = points[(i + 1) % points.length] as GridPoint;
      if (a.x !== b.x) continue; // only vertical edges cross a horizontal ray
      if (a.x <= px) continue;
      if (a.y <= py && b.y > py) wind += 1;
      else if (b.y <= py && a.y > py) wind -= 1;
    }
  }
  return wind;
}

/** Fills the contours back into a bitmap, sampling each cell's centre. */
function fill(contours: GridPoint[][], width: number, height: number): Uint8Array {
  const bits = new Uint8Array(width * height);
  for (let row = 0; row < height; row++) {
    for (let x = 0; x < width; x++)
      bits[row * width + x] = winding(contours, x + 0.5, height - row - 0.5) !== 0 ? 1 : 0;
  }
  return bits;
}

describe('traceBitmap', () => {
  test('a single pixel is one clockwise square of four corners', () => {
    const contours = traceBitmap(bitmap('.#.', '...'));
    expect(contours).toHaveLength(1);
    const [square] = contours as [GridPoint[]];
    expect(square).toHaveLength(4);
    expect(new Set(square.map((p) => `${p.x},${p.y}`))).toEqual(new Set(['1,2', '2,2', '2,1', '1,1']));
    expect(signedArea(square)).toBe(-1); // clockwise, y up
  });

  test('a solid block is one contour with only its corners, not one square per pixel', () => {
    const contours = traceBitmap(bitmap('###', '###', '###'));
    expect(contours).toHaveLength(1);
    expect(contours[0]).toHaveLength(4);
    expect(signedArea(contours[0] as GridPoint[])).toBe(-9);
  });

  test('an L shape keeps its six corners', () => {
    const contours = traceBitmap(bitmap('#..', '#..', '###'));
    expect(contours).toHaveLength(1);
    expect(contours[0]).toHaveLength(6);
    expect(signedArea(contours[0] as GridPoint[])).toBe(-5);
  });

  test('a ring has an outer contour and a counter-clockwise hole', () => {
    const contours = traceBitmap(bitmap('###', '#.#', '###'));
    expect(contours).toHaveLength(2);
    const areas = contours.map(signedArea).sort((a, b) => a - b);
    expect(areas).toEqual([-9, 1]);
  });

  test('pixels that touch only at a corner are separate contours', () => {
    const contours = traceBitmap(bitmap('#.', '.#'));
    expect(contours).toHaveLength(2);
    for (const contour of contours) {
      expect(contour).toHaveLength(4);
      expect(signedArea(contour)).toBe(-1);
    }
    // And a hole whose corner touches the outside stays a hole.
    const notched = traceBitmap(bitmap('####', '#.##', '##.#', '####'));
    expect(fill(notched, 4, 4)).toEqual(bitmap('####', '#.##', '##.#', '####').bits);
  });

  test('an empty bitmap has no contours', () => {
    expect(traceBitmap(bitmap('...', '...'))).toEqual([]);
  });

  test('any bitmap filled back from its contours is the same bitmap', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    for (let run = 0; run < 200; run++) {
      const width = 1 + Math.floor(random() * 12);
      const height = 1 + Math.floor(random() * 12);
      const density = random();
      const bits = Uint8Array.from({ length: width * height }, () => (random() < density ? 1 : 0));
      const contours = traceBitmap({ width, height, bits });
      expect(fill(contours, width, height)).toEqual(bits);
      // No corner is on a straight run, and every contour is closed by its points.
      for (const contour of contours) {
        for (let i = 0; i < contour.length; i++) {
          const a = contour[(i + contour.length - 1) % contour.length] as GridPoint;
          const b = contour[i] as GridPoint;
          const c = contour[(i + 1) % contour.length] as GridPoint;
          expect((a.x === b.x && b.x === c.x) || (a.y === b.y && b.y === c.y)).toBe(false);
        }
      }
      const inked = bits.reduce((sum, bit) => sum + bit, 0);
      expect(0 - contours.reduce((sum, contour) => sum + signedArea(contour), 0)).toBe(inked);
    }
  });
});
