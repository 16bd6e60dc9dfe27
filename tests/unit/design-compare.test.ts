import fs from 'node:fs';
import { describe, expect, test } from 'vitest';
import { compareFaces, OUTLINE_TOLERANCE, outlineSample } from '../../src/server/engine/design-compare.ts';
import { redrawnByFontTools, withoutCharactersByFontTools } from '../helpers/font-writers.ts';

// Whether a final face is the design that was reviewed: its characters, and its outlines drawn at
// 100 px to the em, where a stroke may move by one pixel (1 % of the em) and still be the same.

const REGULAR = new Uint8Array(fs.readFileSync('tests/fixtures/fonts/noto-sans-sc/NotoSansSC_400Regular.ttf'));
const BOLD = new Uint8Array(fs.readFileSync('tests/fixtures/fonts/noto-sans-sc/NotoSansSC_700Bold.ttf'));
const cp = (char: string) => char.codePointAt(0) as number;

describe('the same design', () => {
  test('a face is its own design', () => {
    expect(compareFaces(REGULAR, REGULAR)).toMatchObject({ missingCount: 0, redrawnCount: 0 });
  });

  test('outlines moved by up to 1 % of the em, as a re-export rounds them, are the same', () => {
    // Noto Sans SC has 1000 units to the em: 9 units is under one pixel at 100 px.
    expect(compareFaces(REGULAR, redrawnByFontTools(REGULAR, '', 1, 9)).redrawnCount).toBe(0);
  });

  test('the sample holds the specimen’s characters and a spread of the rest', () => {
    // Hangul syllables stand for the face's other characters: none of them is in the specimen.
    const rest = Array.from({ length: 500 }, (_, i) => 0xac00 + i);
    const sample = outlineSample([cp('A'), cp('永'), ...rest, cp('和')]);
    expect(sample.slice(0, 3)).toEqual([cp('永'), cp('和'), cp('A')]);
    expect(sample.length).toBe(3 + 40);
    expect(sample.slice(3).every((point) => rest.includes(point))).toBe(true);
  });
});

describe('a changed design', () => {
  test('a redrawn character differs by more than the tolerance', () => {
    const result = compareFaces(REGULAR, redrawnByFontTools(REGULAR, '永', 0.8, 0));
    expect(result.redrawn.map((glyph) => glyph.codePoint)).toEqual([cp('永')]);
    expect(result.redrawn[0]?.difference).toBeGreaterThan(OUTLINE_TOLERANCE * 10);
  });

  test('another weight is drawn differently nearly everywhere', () => {
    // Only marks as light as a full stop may look alike in both weights.
    const result = compareFaces(REGULAR, BOLD);
    expect(result.redrawnCount).toBeGreaterThan(result.sampled * 0.8);
    expect(result.redrawn.map((glyph) => String.fromCodePoint(glyph.codePoint))).toContain('永');
  });

  test('characters the reviewed face had are missing', () => {
    expect(compareFaces(REGULAR, withoutCharactersByFontTools(REGULAR, '永和'))).toMatchObject({
      missingCount: 2,
      missing: [cp('和'), cp('永')],
    });
  });
});
