import { describe, expect, test } from 'vitest';
import { coverageSets } from '../../src/server/engine/charsets.ts';
import { chooseSamples } from '../../src/server/fonts/samples.ts';

// A face's default texts must be entirely its own: the library shows each face in them until the
// visitor types, and marks every character the face lacks as missing.

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const codes = (text: string) => [...text].map((ch) => ch.codePointAt(0) ?? 0);
const PUNCTUATION = codes('，。、；：？！「」『』（）《》〈〉—…·');
const LATIN = range(0x20, 0x7e);
const KANA = range(0x3041, 0x30ff);

/** Faces as the library holds them: what each maps, by its script. */
const FACES = {
  // A Simplified face with GB 2312, and a Traditional one with Big5 (without 岁, 会, 兰 …).
  简体: new Set([...coverageSets().gb2312, ...PUNCTUATION, ...LATIN]),
  繁体: new Set([...coverageSets().big5, ...PUNCTUATION, ...LATIN]),
  // A Japanese face: kana, the kanji GB 2312 and Big5 share, and the Japanese forms 輩, 猫 and 無.
  日文: new Set([
    ...KANA,
    ...[...coverageSets().gb2312].filter((cp) => coverageSets().big5.has(cp)),
    ...codes('輩猫無'),
    ...PUNCTUATION,
  ]),
};

/** The characters of `text` the face lacks, spaces aside (a preview never marks a space). */
const lacking = (text: string, face: ReadonlySet<number>) =>
  [...text].filter((ch) => ch.trim() && !face.has(ch.codePointAt(0) ?? 0));

describe('chooseSamples', () => {
  test.each(Object.entries(FACES))('gives a %s face texts of its own script that it has entirely', (script, face) => {
    const samples = chooseSamples(script, face);
    expect(lacking(samples.line, face)).toEqual([]);
    expect(lacking(samples.paragraph, face)).toEqual([]);
    expect(lacking(samples.latin, face)).toEqual([]);
    expect(samples.line.length).toBeGreaterThan(4);
    expect(samples.paragraph.length).toBeGreaterThan(20);
  });

  test('writes the Simplified line in Simplified, the Traditional one in Traditional, and Japanese in kana and kanji', () => {
    expect(chooseSamples('简体', FACES.简体).line).toBe('永和九年，岁在癸丑，暮春之初');
    expect(chooseSamples('繁体', FACES.繁体).line).toBe('永和九年，歲在癸丑，暮春之初');
    expect(chooseSamples('日文', FACES.日文).line).toBe('吾輩は猫である。名前はまだ無い。');
  });

  test('sets punctuation a face lacks as a full-width space, rather than marking it missing', () => {
    const face = new Set(codes('永和九年岁在癸丑暮春之初'));
    expect(chooseSamples('简体', face).line).toBe('永和九年\u3000岁在癸丑\u3000暮春之初');
  });

  test('goes on to the next text when a character that carries meaning is missing', () => {
    const face = new Set([...FACES.简体].filter((cp) => cp !== codes('癸')[0]));
    const { line } = chooseSamples('简体', face);
    expect(line).not.toContain('癸');
    expect(lacking(line, face)).toEqual([]);
  });

  test('falls back to the face’s own characters when no text fits, and leaves out Latin it lacks', () => {
    const face = new Set(codes('一乙二十丁厂七卜八人入儿'));
    const samples = chooseSamples('繁体', face);
    expect(samples.line).toBe('一乙二十丁厂七卜八人入儿');
    expect(samples.latin).toBe('');
    expect(lacking(samples.paragraph, face)).toEqual([]);
  });

  test('keeps the paragraph’s clauses the face has, when it lacks some of them', () => {
    const paragraph = chooseSamples(
      '简体',
      new Set([...codes('永和九年岁在癸丑暮春之初会于稽山阴兰亭修禊事也'), ...PUNCTUATION]),
    );
    expect(paragraph.paragraph.startsWith('永和九年，岁在癸丑，暮春之初，会于会稽山阴之兰亭，修禊事也。')).toBe(true);
  });
});
