import { describe, expect, test } from 'vitest';
import { splitRuns } from '../../src/server/engine/text/runs.ts';

// Faces as sets of characters, as the font registry answers their coverage.
const face = (characters: string) => ({
  has: (codePoint: number) => characters.includes(String.fromCodePoint(codePoint)),
});
const japanese = face('像素与游日本語 ');
const simplified = face('像素与游戏联盟 ');
const traditional = face('戲聯盟');

describe('splitRuns', () => {
  test('sets each character in the first face that has it, keeping runs of one face together', () => {
    expect(splitRuns('像素与游戏', [japanese, simplified])).toEqual({
      runs: [
        { text: '像素与游', face: 0 },
        { text: '戏', face: 1 },
      ],
      missing: [],
    });
  });

  test('leaves out and reports a character no face has, once', () => {
    expect(splitRuns('游戏𠀀联𠀀', [japanese, traditional])).toEqual({
      runs: [{ text: '游', face: 0 }],
      missing: ['戏', '𠀀', '联'],
    });
  });

  test('keeps a space and a variation selector with the run they follow', () => {
    const { runs } = splitRuns('像素 戏\ufe00', [japanese, simplified]);
    expect(runs).toEqual([
      { text: '像素 ', face: 0 },
      { text: '戏\ufe00', face: 1 },
    ]);
  });
});
