import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { coverageSets } from '../../src/server/engine/charsets.ts';
import { cssWeight, FontFormatError, readFontMetadata } from '../../src/server/engine/metadata.ts';
import { childGno, pickDefaultFace } from '../../src/server/fonts/faces.ts';
import { readCmapCodePoints } from '../helpers/cmap.ts';

const FIXTURES = 'tests/fixtures/fonts';
const read = (file: string) => new Uint8Array(fs.readFileSync(`${FIXTURES}/${file}`));

describe('readFontMetadata', () => {
  test.each([
    ['zcool-kuaile/ZCOOLKuaiLe_400Regular.ttf', 'ZCOOL KuaiLe', 'Regular', 'ZCOOLKuaiLe-Regular', 400, 'Lui Bingke'],
    ['ma-shan-zheng/MaShanZheng_400Regular.ttf', 'Ma Shan Zheng', 'Regular', 'MaShanZheng-Regular', 400, 'ZhongQi'],
    ['noto-sans-sc/NotoSansSC_400Regular.ttf', 'Noto Sans SC', 'Regular', 'NotoSansSC-Regular', 400, undefined],
    ['noto-sans-sc/NotoSansSC_700Bold.ttf', 'Noto Sans SC', 'Bold', 'NotoSansSC-Bold', 700, undefined],
  ])('reads the names and weight of %s', (file, family, style, postscript, weight, designer) => {
    const meta = readFontMetadata(read(file));
    expect(meta.familyName).toBe(family);
    expect(meta.styleName).toBe(style);
    expect(meta.fullName).toBe(`${family} ${style}`);
    expect(meta.postscriptName).toBe(postscript);
    expect(meta.weight).toBe(weight);
    expect(meta.weightClass).toBe(weight);
    expect(meta.italic).toBe(false);
    expect(meta.unitsPerEm).toBe(1000);
    expect(meta.version).toMatch(/^Version \d+\.\d+/);
    expect(meta.licenseUrl).toMatch(/openfontlicense\.org|scripts\.sil\.org\/OFL/);
    if (designer) expect(meta.designer).toBe(designer);
    // Google's builds carry no Chinese name records.
    expect(meta.familyNameZhHans).toBeUndefined();
  });

  test.each([
    'zcool-kuaile/ZCOOLKuaiLe_400Regular.ttf',
    'ma-shan-zheng/MaShanZheng_400Regular.ttf',
    'noto-sans-sc/NotoSansSC_400Regular.ttf',
    'noto-sans-sc/NotoSansSC_700Bold.ttf',
  ])('counts coverage of %s equal to an independent reading of its cmap', (file) => {
    const bytes = read(file);
    const mapped = readCmapCodePoints(bytes);
    const sets = coverageSets();
    const expected = {
      gb2312: [...sets.gb2312].filter((cp) => mapped.has(cp)).length,
      tongyong: [...sets.tongyong].filter((cp) => mapped.has(cp)).length,
      big5: [...sets.big5].filter((cp) => mapped.has(cp)).length,
      latin: [...sets.latin].filter((cp) => mapped.has(cp)).length,
    };
    const meta = readFontMetadata(bytes);
    expect(meta.coverage).toEqual(expected);
    expect(meta.coverage.latin).toBe(95);
    expect(meta.coverage.gb2312).toBeGreaterThan(100);
  });

  test.each([
    ['Regular', 'Light'],
    ['Italic', 'Light Italic'],
  ])('reads the weight a font without typographic names puts in its family (%s → %s)', (subfamily, style) => {
    // As web-font subsetters leave a Light face: family 'Test Sans Light', subfamily 'Regular', no ID 16/17.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'font-metadata-'));
    const file = path.join(dir, 'light.ttf');
    execFileSync('/usr/bin/python3', [
      '-c',
      [
        'import sys',
        'from fontTools.ttLib import TTFont',
        'f = TTFont(sys.argv[1])',
        'n = f["name"]',
        'n.names = [r for r in n.names if r.nameID not in (16, 17)]',
        'n.setName("Test Sans Light", 1, 3, 1, 0x409)',
        'n.setName(sys.argv[3], 2, 3, 1, 0x409)',
        'f["OS/2"].usWeightClass = 300',
        'f.save(sys.argv[2])',
      ].join('\n'),
      `${FIXTURES}/noto-sans-sc/NotoSansSC_400Regular.ttf`,
      file,
      subfamily,
    ]);
    const meta = readFontMetadata(new Uint8Array(fs.readFileSync(file)));
    fs.rmSync(dir, { recursive: true, force: true });
    expect(meta.styleName).toBe(style);
    expect(meta.weight).toBe(300);
  });

  test('counts the glyphs of the font', () => {
    expect(readFontMetadata(read('noto-sans-sc/NotoSansSC_400Regular.ttf')).glyphCount).toBe(725);
  });

  test('throws FontFormatError for bytes that are not a font', () => {
    expect(() => readFontMetadata(new TextEncoder().encode('definitely not a font file'))).toThrow(FontFormatError);
  });
});

describe('cssWeight', () => {
  test.each([
    [400, 'Regular', 400],
    [700, 'Bold', 700],
    [250, 'Thin', 100],
    [250, 'ExtraLight', 200],
    [350, 'SemiBold', 600],
    [350, 'Book', 400],
    [950, 'Mystery', 900],
  ])('returns the CSS weight for class %i and style %s', (weightClass, style, expected) => {
    expect(cssWeight(weightClass, style)).toBe(expected);
  });
});

describe('pickDefaultFace', () => {
  const face = (weight: number, italic = false) => ({ weight, italic });

  test('returns the upright 400 when there is one', () => {
    expect(pickDefaultFace([face(700), face(400, true), face(400), face(300)])).toEqual(face(400));
  });

  test('returns 500, then the nearest lighter, then the nearest heavier weight when 400 is missing', () => {
    expect(pickDefaultFace([face(300), face(500), face(600)])).toEqual(face(500));
    expect(pickDefaultFace([face(200), face(300), face(600)])).toEqual(face(300));
    expect(pickDefaultFace([face(900), face(600)])).toEqual(face(600));
  });

  test('returns undefined for no faces', () => {
    expect(pickDefaultFace([])).toBeUndefined();
  });
});

describe('childGno', () => {
  test('returns the family slug with the weight, and i for italic', () => {
    expect(childGno('noto-sans-sc', { weight: 400, italic: false })).toBe('noto-sans-sc-400');
    expect(childGno('noto-sans-sc', { weight: 700, italic: true })).toBe('noto-sans-sc-700i');
  });
});
