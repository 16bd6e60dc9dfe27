import { describe, expect, test } from 'vitest';
import { adjustBox, newBox, splitBox, unionBox } from '../../src/islands/tools/identify/boxes.ts';
import { sniffPicture } from '../../src/server/tools/identify/pictures.ts';

const size = { width: 200, height: 100 };

describe('glyph box editing', () => {
  test('moves and resizes a box but keeps it inside the picture and at least 4 px a side', () => {
    const box = { x: 10, y: 10, width: 30, height: 30 };
    expect(adjustBox(box, { dx: 5, dy: -3 }, size)).toEqual({ x: 15, y: 7, width: 30, height: 30 });
    expect(adjustBox(box, { dx: 500 }, size)).toEqual({ x: 170, y: 10, width: 30, height: 30 });
    expect(adjustBox(box, { dw: -100, dh: 500 }, size)).toEqual({ x: 10, y: 0, width: 4, height: 100 });
  });

  test('merges two boxes into the one holding both and splits a box into halves', () => {
    expect(unionBox({ x: 10, y: 20, width: 10, height: 10 }, { x: 25, y: 15, width: 10, height: 30 })).toEqual({
      x: 10,
      y: 15,
      width: 25,
      height: 30,
    });
    expect(splitBox({ x: 10, y: 0, width: 41, height: 20 })).toEqual([
      { x: 10, y: 0, width: 20, height: 20 },
      { x: 30, y: 0, width: 21, height: 20 },
    ]);
  });

  test('adds a box of the typical glyph size in the middle of the picture', () => {
    const glyphs = [30, 34, 60].map((side, key) => ({
      key,
      box: { x: 0, y: 0, width: side, height: side },
      character: '',
      suggestions: [],
    }));
    expect(newBox(glyphs, size)).toEqual({ x: 83, y: 33, width: 34, height: 34 });
  });
});

describe('sniffPicture', () => {
  test.each([
    ['png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
    ['jpeg', [0xff, 0xd8, 0xff, 0xe0]],
    ['webp', [...Buffer.from('RIFF'), 0, 0, 0, 0, ...Buffer.from('WEBPVP8 ')]],
    [null, [...Buffer.from('GIF89a')]],
    [null, [...Buffer.from('<svg xmlns=')]],
  ])('tells %s from the first bytes', (format, bytes) => {
    expect(sniffPicture(new Uint8Array(bytes))).toBe(format);
  });
});
