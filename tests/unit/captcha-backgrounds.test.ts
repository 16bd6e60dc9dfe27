import { describe, expect, test } from 'vitest';
import { BackgroundSet, drawBackgrounds } from '../../src/server/auth/captcha-image.ts';

// The puzzle's backgrounds are drawn on the server's own thread when the first puzzle is asked for:
// the other requests of that moment must get their turns while they are drawn.
describe('the puzzle backgrounds', () => {
  test('are drawn a turn of the event loop apart, not in one go', async () => {
    let turns = 0;
    let drawing = true;
    const count = () => {
      if (!drawing) return;
      turns++;
      setImmediate(count);
    };
    setImmediate(count);
    const backgrounds = await drawBackgrounds(4, []);
    drawing = false;
    expect(backgrounds).toHaveLength(4);
    // A turn before each drawing after the first.
    expect(turns).toBeGreaterThanOrEqual(3);
  });

  test('cut puzzles from what was drawn', async () => {
    const set = new BackgroundSet(await drawBackgrounds(2, []));
    expect(set.size).toBe(2);
    const puzzle = await set.cut(1, 120, 40);
    expect(puzzle.x).toBeGreaterThan(0);
    expect(puzzle.originalImageBase64.length).toBeGreaterThan(1000);
  });
});
