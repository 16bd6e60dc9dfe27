import { describe, expect, test } from 'vitest';
import { cropOfBox, describeBox, findGlyphs } from '../../src/server/engine/identify/glyphs.ts';
import { leadingFace, preferLeadingFace, type WeighedReading } from '../../src/server/engine/identify/leading-face.ts';
import { ReferenceFont } from '../../src/server/engine/identify/reference.ts';
import type { GlyphCrop } from '../../src/server/engine/identify/rerank.ts';
import { drawTextPicture, fixtureFont, registerTestFont } from '../helpers/identify.ts';

// The readings weighed again in the face the picture is set in (leading-face.ts). A brush face is far
// from every judging face (Noto Sans SC draws a brush 己 less like it than 土), but in the brush face
// itself each character is drawn almost as the picture shows it.

const files = {
  brush: fixtureFont('ma-shan-zheng', 'MaShanZheng_400Regular.ttf'),
  kuaile: fixtureFont('zcool-kuaile', 'ZCOOLKuaiLe_400Regular.ttf'),
  sans: fixtureFont('noto-sans-sc', 'NotoSansSC_400Regular.ttf'),
};
const fonts = {
  brush: new ReferenceFont({ path: files.brush }),
  kuaile: new ReferenceFont({ path: files.kuaile }),
  sans: new ReferenceFont({ path: files.sans }),
};

/** The picture's glyphs of a text drawn in a fixture face: their crops and descriptors. */
function glyphsOf(file: string, text: string): { crop: GlyphCrop; descriptor: Float32Array }[] {
  const picture = drawTextPicture({ lines: [text], family: registerTestFont(file), size: 40, spacing: 0.3 });
  const found = findGlyphs(picture.gray);
  const boxes = found.lines.flatMap((line) => line.glyphs);
  expect(boxes).toHaveLength([...text].length);
  return boxes.map((box) => ({
    crop: cropOfBox(found, box) as GlyphCrop,
    descriptor: describeBox(found, box) as Float32Array,
  }));
}

/** Readings of the glyphs: each a list of characters, the first read with the reader's confidence 0.6. */
function readingsOf(glyphs: { crop: GlyphCrop }[], read: string[][], found: string[][] = []): WeighedReading[] {
  return glyphs.map((glyph, i) => ({
    suggestions: (read[i] ?? []).map((character, k) => ({ character, confidence: k === 0 ? 0.6 : 0.2 })),
    crop: glyph.crop,
    found: found[i] ?? [],
  }));
}

const firsts = (answers: { character: string }[][]) => answers.map((suggestions) => suggestions[0]?.character);

describe('the face the readings lead to', () => {
  test('is the face whose references are most like the glyphs', () => {
    const glyphs = glyphsOf(files.brush, '士己日');
    const query = glyphs.map((glyph, i) => ({ character: [...'士己日'][i] as string, descriptor: glyph.descriptor }));
    const lookup = (face: string, character: string) => fonts[face as keyof typeof fonts].describe(character);
    expect(leadingFace(query, ['sans', 'kuaile', 'brush'], lookup)).toBe('brush');
    expect(leadingFace([], ['sans', 'brush'], lookup)).toBeNull();
  });
});

describe('readings weighed again in the leading face', () => {
  const brush = glyphsOf(files.brush, '士己日');
  const drawBrush = (character: string) => fonts.brush.draw(character);

  test('takes the character the face draws like the glyph over a reading a stroke apart', () => {
    const answers = preferLeadingFace(readingsOf(brush, [['土', '士'], ['已', '己'], ['日']]), drawBrush);
    expect(firsts(answers)).toEqual(['士', '己', '日']);
    // The reading stays, next, for the person to pick.
    expect(answers[0]?.map((suggestion) => suggestion.character)).toEqual(['士', '土']);
  });

  test('keeps readings the face draws most like the glyphs', () => {
    const answers = preferLeadingFace(
      readingsOf(brush, [
        ['士', '土'],
        ['己', '已', '巳'],
        ['日', '曰'],
      ]),
      drawBrush,
    );
    expect(firsts(answers)).toEqual(['士', '己', '日']);
  });

  test('weighs the characters the search by shape found', () => {
    const answers = preferLeadingFace(readingsOf(brush, [['士'], ['己'], ['目']], [[], [], ['曰', '日']]), drawBrush);
    expect(firsts(answers)).toEqual(['士', '己', '日']);
  });

  test('keeps a reading when another character leaves most of its mismatch', () => {
    // A glyph of 士 alone (no other glyph to compare with), read as 已: 己 is drawn a little more like it,
    // far from the share of the mismatch it would have to take away.
    const [alone] = glyphsOf(files.brush, '士');
    const answers = preferLeadingFace(readingsOf([alone as { crop: GlyphCrop }], [['已', '己']]), drawBrush);
    expect(firsts(answers)).toEqual(['已']);
    expect(firsts(preferLeadingFace(readingsOf([alone as { crop: GlyphCrop }], [['已', '士']]), drawBrush))).toEqual([
      '士',
    ]);
  });

  test('replaces a reading the face lacks only by a character drawn as alike as the other glyphs', () => {
    // Ma Shan Zheng's subset has 士 and 曰 but not 目; a face lacking 土 is made by leaving it out.
    expect(fonts.brush.has('目')).toBe(false);
    const lacking = (character: string) => (character === '土' ? null : drawBrush(character));
    expect(firsts(preferLeadingFace(readingsOf(brush, [['土', '士'], ['己'], ['日']]), lacking))).toEqual([
      '士',
      '己',
      '日',
    ]);
    // 曰, the face's nearest drawing to a glyph of 日 after 日 itself, is more than LACKED_BELOW_OTHERS
    // below the other glyphs: the reading stays.
    expect(firsts(preferLeadingFace(readingsOf(brush, [['士'], ['己'], ['目', '曰']]), drawBrush))).toEqual([
      '士',
      '己',
      '目',
    ]);
  });

  test('keeps a reading when the best-drawn character is still far less alike than the other glyphs', () => {
    // A glyph of 日 read as 目: 田 is drawn more like it than 目, but far less than the face draws 口 and
    // 田 like theirs (BELOW_OTHERS). Neither is the glyph.
    const kuaile = glyphsOf(files.kuaile, '口田日');
    const drawKuaile = (character: string) => fonts.kuaile.draw(character);
    expect(firsts(preferLeadingFace(readingsOf(kuaile, [['口'], ['田'], ['目', '田']]), drawKuaile))).toEqual([
      '口',
      '田',
      '目',
    ]);
    expect(firsts(preferLeadingFace(readingsOf(kuaile, [['口'], ['田'], ['目', '日']]), drawKuaile))).toEqual([
      '口',
      '田',
      '日',
    ]);
  });
});
