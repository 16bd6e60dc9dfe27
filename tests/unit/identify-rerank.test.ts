import { describe, expect, test } from 'vitest';
import { cropOfBox, describeBox, findGlyphs } from '../../src/server/engine/identify/glyphs.ts';
import { rankFaces } from '../../src/server/engine/identify/matcher.ts';
import { ReferenceFont } from '../../src/server/engine/identify/reference.ts';
import { rerankByDrawing } from '../../src/server/engine/identify/rerank.ts';
import { drawTextPicture, registerTestFont } from '../helpers/identify.ts';

// Close siblings the index's descriptor alone confuses: one skeleton with square or round stroke
// ends (M+ 1p and M+ Rounded 1c, Zen Kaku Gothic New and Zen Maru Gothic), two Ming faces of one
// weight (Noto Serif JP, Shippori Mincho). The second look, the candidates' own drawings compared
// with the picture's glyphs, has to tell each from its sibling.

const faces = {
  'M+ 1p': 'm-plus-1p/MPLUS1p_400Regular.ttf',
  'M+ Rounded 1c': 'm-plus-rounded-1c/MPLUSRounded1c_400Regular.ttf',
  'Zen Kaku Gothic New': 'zen-kaku-gothic-new/ZenKakuGothicNew_400Regular.ttf',
  'Zen Maru Gothic': 'zen-maru-gothic/ZenMaruGothic_400Regular.ttf',
  'Noto Serif JP': 'noto-serif-jp/NotoSerifJP_400Regular.ttf',
  'Shippori Mincho': 'shippori-mincho/ShipporiMincho_400Regular.ttf',
} as const;
type Name = keyof typeof faces;
const names = Object.keys(faces) as Name[];
const fonts = new Map(names.map((name) => [name, new ReferenceFont({ path: fontFile(name) })]));

function fontFile(name: Name): string {
  return `tests/fixtures/identify-fonts/${faces[name]}`;
}

/** The six faces ranked for a clean picture of `text` drawn in `name`. */
function identify(name: Name, text: string, size: number) {
  const picture = drawTextPicture({ lines: [text], family: registerTestFont(fontFile(name)), size, spacing: 0.1 });
  const found = findGlyphs(picture.gray);
  const boxes = found.lines.flatMap((line) => line.glyphs);
  expect(boxes).toHaveLength([...text].length);
  const glyphs = boxes.map((box, i) => ({
    character: [...text][i] as string,
    descriptor: describeBox(found, box) as Float32Array,
    crop: cropOfBox(found, box) as NonNullable<ReturnType<typeof cropOfBox>>,
  }));
  const font = (face: string) => fonts.get(face as Name) as ReferenceFont;
  const coarse = rankFaces(glyphs, names, (face, character) => font(face).describe(character));
  const ranked = rerankByDrawing(coarse, glyphs, (face, character) => font(face).draw(character));
  return ranked;
}

describe('the second look at the best candidates', () => {
  // Every face, four samples, three sizes: the descriptor alone put the sibling first in 9 of these 72.
  const cases = names.flatMap((name) =>
    ['永和九年', '東京都山川', '国語書道', '文字明朝体'].flatMap((text) =>
      [32, 48, 72].map((size) => [name, text, size] as const),
    ),
  );
  test.each(cases)('tells %s from its sibling in a clean picture of %s at %i px', (name, text, size) => {
    const ranked = identify(name, text, size);
    expect(ranked[0]?.faceIds).toEqual([name]);
  });

  test('keeps faces that draw the sample alike as one candidate, and parts faces whose drawings differ', () => {
    // One candidate holding two faces that draw differently comes back as two.
    const merged = [{ faceIds: ['Zen Kaku Gothic New', 'Zen Maru Gothic'], score: 0.9, covered: 4 }];
    const picture = drawTextPicture({
      lines: ['永和九年'],
      family: registerTestFont(fontFile('Zen Maru Gothic')),
      size: 48,
      spacing: 0.1,
    });
    const found = findGlyphs(picture.gray);
    const glyphs = found.lines[0]?.glyphs.map((box, i) => ({
      character: [...'永和九年'][i] as string,
      crop: cropOfBox(found, box) as NonNullable<ReturnType<typeof cropOfBox>>,
    }));
    const parted = rerankByDrawing(merged, glyphs ?? [], (face, character) =>
      (fonts.get(face as Name) as ReferenceFont).draw(character),
    );
    expect(parted.map((candidate) => candidate.faceIds)).toEqual([['Zen Maru Gothic'], ['Zen Kaku Gothic New']]);
    // The same face twice (identical drawings) stays one candidate.
    const same = rerankByDrawing(
      [{ faceIds: ['Zen Maru Gothic', 'Zen Maru Gothic'], score: 0.9, covered: 4 }],
      glyphs ?? [],
      (face, character) => (fonts.get(face as Name) as ReferenceFont).draw(character),
    );
    expect(same).toHaveLength(1);
  });
});
