import { describe, expect, test } from 'vitest';
import { coverageSets, jisKanji } from '../../src/server/engine/charsets.ts';
import { binarise } from '../../src/server/engine/identify/binarise.ts';
import { describeBox, findGlyphs } from '../../src/server/engine/identify/glyphs.ts';
import { rankFaces, sampleScript, scriptShown } from '../../src/server/engine/identify/matcher.ts';
import { ReferenceFont } from '../../src/server/engine/identify/reference.ts';
import { ReferenceStore } from '../../src/server/engine/identify/reference-store.ts';
import { rotateGray } from '../../src/server/engine/identify/segment.ts';
import {
  judgeSample,
  leadBySample,
  leadTiesBySample,
  SCRIPT_DECIDES_WITHIN,
  sampleStanding,
} from '../../src/server/tools/identify/script-faces.ts';
import { drawTextPicture, fixtureFont, overlapOf, registerTestFont } from '../helpers/identify.ts';

const notoRegular = fixtureFont('noto-sans-sc', 'NotoSansSC_400Regular.ttf');
const notoBold = fixtureFont('noto-sans-sc', 'NotoSansSC_700Bold.ttf');
const kuaile = fixtureFont('zcool-kuaile', 'ZCOOLKuaiLe_400Regular.ttf');
const regularFamily = registerTestFont(notoRegular);
const boldFamily = registerTestFont(notoBold);

describe('binarise', () => {
  test('finds the same ink in dark text on light ground and light text on dark ground', () => {
    const dark = drawTextPicture({ lines: ['永和九年'], family: boldFamily, size: 48 });
    const light = drawTextPicture({ lines: ['永和九年'], family: boldFamily, size: 48, light: true });
    const a = binarise(dark.gray);
    const b = binarise(light.gray);
    expect(a.lightText).toBe(false);
    expect(b.lightText).toBe(true);
    let differ = 0;
    for (let i = 0; i < a.mask.data.length; i++) if (a.mask.data[i] !== b.mask.data[i]) differ++;
    expect(differ / a.mask.data.length).toBeLessThan(0.02);
  });

  test('keeps text under uneven lighting', () => {
    const { gray } = drawTextPicture({ lines: ['山水'], family: boldFamily, size: 64 });
    // Darken the right side of the picture by up to 120 levels, as a shadow would.
    for (let y = 0; y < gray.height; y++) {
      for (let x = 0; x < gray.width; x++) {
        const i = y * gray.width + x;
        gray.data[i] = Math.max(0, (gray.data[i] ?? 0) - Math.round((120 * x) / gray.width));
      }
    }
    const found = findGlyphs(gray);
    expect(found.lines).toHaveLength(1);
    expect(found.lines[0]?.glyphs).toHaveLength(2);
  });
});

describe('findGlyphs', () => {
  test('cuts light text on a navy-to-blue gradient as it cuts dark text on white', () => {
    const text = '重政朗陵';
    const picture = drawTextPicture({ lines: [text], family: regularFamily, size: 40, spacing: 0.08 });
    const { width, data } = picture.gray;
    // The strokes turned near-white, the ground a gradient from navy (25) to mid blue (135).
    for (let i = 0; i < data.length; i++) {
      const inkShare = Math.min(1, Math.max(0, (244 - (data[i] as number)) / (244 - 32)));
      const ground = 25 + (110 * (i % width)) / width;
      data[i] = Math.round(ground * (1 - inkShare) + 245 * inkShare);
    }
    const found = findGlyphs(picture.gray);
    expect(found.lightText).toBe(true);
    expect(found.lines.map((line) => line.glyphs.length)).toEqual([4]);
    found.lines[0]?.glyphs.forEach((glyph, i) => {
      expect(overlapOf(glyph, picture.boxes[0]?.[i] as (typeof picture.boxes)[0][0])).toBeGreaterThan(0.8);
    });
  });

  test.each([
    ['characters made of separate parts', ['川小儿八', '三二心以']],
    ['a line of mixed characters', ['公分北外不']],
    ['two lines at a small size', ['永和九年', '岁在癸丑']],
  ])('cuts %s into the boxes they were drawn in', (_name, lines) => {
    const size = lines.length > 1 && lines[0] === '永和九年' ? 28 : 56;
    const picture = drawTextPicture({ lines, family: regularFamily, size, spacing: 0.08 });
    const found = findGlyphs(picture.gray);
    expect(found.angle).toBe(0);
    expect(found.lines.map((line) => line.glyphs.length)).toEqual(lines.map((line) => [...line].length));
    found.lines.forEach((line, row) => {
      line.glyphs.forEach((glyph, column) => {
        const expected = picture.boxes[row]?.[column];
        expect(expected).toBeDefined();
        if (expected) expect(overlapOf(glyph, expected)).toBeGreaterThan(0.8);
      });
    });
  });

  test('leaves out the edge of a panel along a side of the picture, grain joined to it included', () => {
    const picture = drawTextPicture({ lines: ['重政朗陵'], family: regularFamily, size: 40, light: true });
    const { width, height, data } = picture.gray;
    // A light line two pixels wide down two thirds of the right side, as a rotated or cropped
    // panel leaves, with grain joined to it, and a crumb of such a line on the left side.
    for (let y = 0; y < Math.round(height * 0.7); y++) {
      data[y * width + width - 1] = 240;
      data[y * width + width - 2] = 240;
      if (y % 7 === 0) data[y * width + width - 3] = data[y * width + width - 4] = 240;
    }
    for (let y = 30; y < 36; y++) data[y * width + 1] = 240;
    const found = findGlyphs(picture.gray);
    expect(found.lines.map((line) => line.glyphs.length)).toEqual([4]);
    found.lines[0]?.glyphs.forEach((glyph, i) => {
      expect(overlapOf(glyph, picture.boxes[0]?.[i] as (typeof picture.boxes)[0][0])).toBeGreaterThan(0.8);
    });
  });

  test('straightens a picture turned by 3 degrees before cutting it', () => {
    const picture = drawTextPicture({ lines: ['造字联盟字体预览'], family: boldFamily, size: 40 });
    const turned = rotateGray(picture.gray, -3);
    const found = findGlyphs(turned);
    expect(Math.abs(found.angle - 3)).toBeLessThan(0.6);
    expect(found.lines).toHaveLength(1);
    expect(found.lines[0]?.glyphs).toHaveLength(8);
  });

  test('cuts characters that touch, with no blank column between them, into one box each', () => {
    // 24 px text set tight: a pixel of blur on each side, as a soft or compressed picture has,
    // closes the one- or two-pixel gaps, and 务像庭某 become one run of columns.
    const text = '务像庭某荣补';
    const picture = drawTextPicture({ lines: [text], family: regularFamily, size: 24, spacing: -0.1 });
    const { width, height, data } = picture.gray;
    const sharp = Uint8Array.from(data);
    for (let y = 0; y < height; y++) {
      for (let x = 1; x < width - 1; x++) {
        const at = y * width + x;
        data[at] = Math.min(sharp[at - 1] as number, sharp[at] as number, sharp[at + 1] as number);
      }
    }
    const found = findGlyphs(picture.gray);
    expect(found.lines.map((line) => line.glyphs.length)).toEqual([[...text].length]);
    found.lines[0]?.glyphs.forEach((glyph, i) => {
      expect(overlapOf(glyph, picture.boxes[0]?.[i] as (typeof picture.boxes)[0][0])).toBeGreaterThan(0.75);
    });
  });

  test('finds nothing in a picture without text', () => {
    const { gray } = drawTextPicture({ lines: [''], family: boldFamily, size: 40 });
    expect(findGlyphs(gray).lines).toEqual([]);
  });
});

describe('rankFaces', () => {
  const faces = {
    regular: new ReferenceFont({ path: notoRegular }),
    bold: new ReferenceFont({ path: notoBold }),
    kuaile: new ReferenceFont({ path: kuaile }),
    boldTwin: new ReferenceFont({ path: notoBold }),
  };
  const index = new ReferenceStore();
  const ids = Object.keys(faces) as (keyof typeof faces)[];
  const lookup = (faceId: string, character: string) => {
    let descriptor = index.get(faceId, character);
    if (descriptor === undefined) {
      descriptor = faces[faceId as keyof typeof faces].describe(character);
      index.add(faceId, [[character, descriptor]]);
    }
    return descriptor;
  };

  test.each([
    ['Noto Sans SC Bold', boldFamily, 'bold'],
    ['Noto Sans SC Regular', regularFamily, 'regular'],
  ])('puts %s first for its own picture, at 32 px', (_name, family, expected) => {
    const text = '中国人民';
    const picture = drawTextPicture({ lines: [text], family, size: 32 });
    const found = findGlyphs(picture.gray);
    const glyphs = (found.lines[0]?.glyphs ?? []).map((box, i) => ({
      character: [...text][i] ?? '',
      descriptor: describeBox(found, box) as Float32Array,
    }));
    const ranked = rankFaces(glyphs, ids, lookup);
    expect(ranked[0]?.faceIds).toContain(expected);
    expect(ranked[0]?.score).toBeGreaterThan(ranked[1]?.score ?? 0);
  });

  test('groups faces that draw the sample alike instead of ranking them apart', () => {
    const picture = drawTextPicture({ lines: ['文化'], family: boldFamily, size: 48 });
    const found = findGlyphs(picture.gray);
    const glyphs = (found.lines[0]?.glyphs ?? []).map((box, i) => ({
      character: '文化'[i] ?? '',
      descriptor: describeBox(found, box) as Float32Array,
    }));
    const ranked = rankFaces(glyphs, ids, lookup);
    expect(ranked[0]?.faceIds.sort()).toEqual(['bold', 'boldTwin']);
    expect(ranked).toHaveLength(3);
  });

  test('leaves out faces that lack every character', () => {
    const descriptor = faces.regular.describe('造') as Float32Array;
    const ranked = rankFaces([{ character: '𠀀', descriptor }], ids, lookup);
    expect(ranked).toEqual([]);
  });
});

describe('sampleScript', () => {
  const sets = coverageSets();
  test.each([
    ['simplified characters', '这边发现', '简体'],
    ['traditional characters', '這邊發現', '繁体'],
    ['characters both scripts share', '永和九年', '简体'],
    ['kana', 'ひらがな', '日文'],
    ['Japanese forms without kana', '帰国駅図', '日文'],
    ['Japanese forms beside shared characters', '永和気', '日文'],
    ['Traditional forms with one Japanese form among them', '這邊發現帰', '繁体'],
  ])('takes %s for their script', (_name, text, script) => {
    expect(sampleScript([...text], { ...sets, jis: jisKanji() })).toBe(script);
  });
});

describe('scriptShown', () => {
  const sets = { ...coverageSets(), jis: jisKanji() };
  test.each([
    ['characters every script writes alike', '永和九年', null],
    ['Simplified characters', '忌坛律', '简体'],
    ['Traditional characters', '挑標祥友', '繁体'],
    ['kana', 'ひらがな', '日文'],
    ['a Japanese form', '帰国', '日文'],
  ])('shows the script of %s, or none', (_name, text, script) => {
    expect(scriptShown([...text], sets)).toBe(script);
  });
});

describe('the candidate that leads candidates scoring alike', () => {
  // 思源宋体 SC and TC differ in a stroke here and there: on a picture of either's characters their
  // scores come within a few thousandths, the blur and the JPEG deciding the order.
  const faces = {
    sc: { familyGno: 'noto-serif-sc', script: '简体' },
    tc: { familyGno: 'noto-serif-tc', script: '繁体' },
  };
  const ranked = (gap: number) => [
    { face: faces.tc, score: 0.966 },
    { face: faces.sc, score: 0.966 - gap },
    { face: faces.tc, score: 0.95 },
  ];
  const leader = (text: string, gap: number) => {
    const { shown, traditional } = judgeSample([...text]);
    const candidates = ranked(gap);
    if (!shown) return candidates[0]?.face.familyGno;
    return leadTiesBySample(candidates, (candidate) => sampleStanding(candidate.face, shown, traditional))[0]?.face
      .familyGno;
  };

  test('is the face of the script the sample shows when the best two score within a hair', () => {
    expect(leader('忌坛律', SCRIPT_DECIDES_WITHIN / 2)).toBe('noto-serif-sc');
    expect(leader('挑標祥友', SCRIPT_DECIDES_WITHIN / 2)).toBe('noto-serif-tc');
  });

  test('is the better score when the scores are apart or the sample shows no script', () => {
    expect(leader('忌坛律', SCRIPT_DECIDES_WITHIN * 2)).toBe('noto-serif-tc');
    expect(leader('永和九年', SCRIPT_DECIDES_WITHIN / 2)).toBe('noto-serif-tc');
  });
});

describe('the face that leads faces drawing a sample alike', () => {
  // 思源黑体 SC, TC, HK and JP, in the order a tie leaves them (the library's, the index's).
  const group = [
    { familyGno: 'noto-sans-hk', script: '繁体' },
    { familyGno: 'noto-sans-jp', script: '日文' },
    { familyGno: 'noto-sans-sc', script: '简体' },
    { familyGno: 'noto-sans-tc', script: '繁体' },
  ];
  const leader = (text: string) => {
    const { script, traditional } = judgeSample([...text]);
    return leadBySample(group, script, traditional)[0]?.familyGno;
  };

  test.each([
    ['Simplified characters', '这边发现', 'noto-sans-sc'],
    ['characters every script shares', '永和九年', 'noto-sans-sc'],
    ['Traditional characters of Taiwan and Hong Kong alike', '這邊發現', 'noto-sans-tc'],
    ['Traditional characters with a Hong Kong form', '衞生綫路', 'noto-sans-hk'],
    ['Japanese forms without kana', '帰国駅図', 'noto-sans-jp'],
  ])('puts the face of the script first for %s', (_name, text, family) => {
    expect(leader(text)).toBe(family);
  });
});
