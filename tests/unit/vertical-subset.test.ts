import fs from 'node:fs';
import { Blob, Buffer, Direction, Face, Font, shape } from 'harfbuzzjs';
import { describe, expect, test } from 'vitest';
import { loadSubsetFace } from '../../src/server/engine/hb-subset.ts';
import { readSfnt, tableOf } from '../../src/server/engine/sfnt.ts';

// 竖排 draws CJK punctuation in its vertical forms: the browser applies the face's `vert`/`vrt2`
// substitutions and advances by `vmtx`. A live preview is a subset of the face, so the subset must
// keep both, or vertical previews would show horizontal commas and brackets.

const FONT = new Uint8Array(fs.readFileSync('tests/fixtures/vertical/NotoSansSC-vertical.ttf'));
const TEXT = '永，。、「」（）《》——……！？';

/** The outlines and advances HarfBuzz gives `text` in a face, horizontally or vertically. */
function shaped(font: Uint8Array, text: string, vertical: boolean) {
  const face = new Face(new Blob(font));
  const hbFont = new Font(face);
  const buffer = new Buffer();
  buffer.addText(text);
  buffer.guessSegmentProperties();
  if (vertical) buffer.setDirection(Direction.TTB);
  shape(hbFont, buffer);
  const infos = buffer.getGlyphInfos();
  const positions = buffer.getGlyphPositions();
  return infos.map((info, i) => ({
    path: hbFont.glyphToPath(info.codepoint),
    advance: vertical ? positions[i]?.yAdvance : positions[i]?.xAdvance,
  }));
}

describe('a live-preview subset of a CJK face', () => {
  const face = loadSubsetFace(FONT);
  const preview = face.subset(new Set([...TEXT].map((ch) => ch.codePointAt(0) ?? 0)));

  test('keeps the vertical forms of its punctuation, drawn as the whole face draws them in 竖排', () => {
    const whole = shaped(FONT, TEXT, true);
    // The face really has vertical forms for this text: vertically, the comma and brackets change.
    const horizontal = shaped(FONT, TEXT, false);
    const changed = whole.filter((glyph, i) => glyph.path !== horizontal[i]?.path).length;
    expect(changed).toBeGreaterThanOrEqual(8);
    expect(shaped(preview, TEXT, true).map((glyph) => glyph.path)).toEqual(whole.map((glyph) => glyph.path));
  });

  test('keeps vhea and vmtx, so each character advances down the column as in the whole face', () => {
    const tables = readSfnt(preview);
    expect(tableOf(tables, 'vhea')).toBeDefined();
    expect(tableOf(tables, 'vmtx')).toBeDefined();
    expect(shaped(preview, TEXT, true).map((glyph) => glyph.advance)).toEqual(
      shaped(FONT, TEXT, true).map((glyph) => glyph.advance),
    );
  });
});
