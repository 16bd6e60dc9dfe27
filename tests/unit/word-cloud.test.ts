import { beforeAll, describe, expect, test } from 'vitest';
import { type CloudRequest, cloudPng, cloudSvg, makeCloud } from '../../src/server/engine/wordcloud/cloud.ts';
import type { WordFont } from '../../src/server/engine/wordcloud/draw.ts';
import { countWords } from '../../src/server/engine/wordcloud/words.ts';
import { cmapByFontTools, passesOts } from '../helpers/font-oracle.ts';
import { fixtureWordFont, heartCloudRequest, inkConflicts, pngStats, wordsOfSvg } from '../helpers/word-cloud.ts';

// Words the fixture font (400 common characters) can draw, with repeats so they have weights.
const WORDS =
  '人民 地区 文化 历史 公司 市场 工业 中心 人口 方式 专业 中央 水平 艺术 土地 机会 飞机 人才 民主 会议'.split(' ');
const TEXT = WORDS.map((word, i) => `${word}。`.repeat(Math.max(1, 20 - i))).join('');

describe('countWords', () => {
  test('keeps words of type design whole and drops stop words, numbers, punctuation and single characters', () => {
    const words = countWords(
      '字体设计是一门手艺。字体设计师说：字体设计要统一，我们的字体设计！2026 年，的 了 A font, a Font.',
      50,
    );
    const texts = words.map((word) => word.text);
    expect(texts[0]).toBe('字体设计');
    expect(texts).toContain('字体设计师');
    expect(texts).toContain('font');
    for (const dropped of ['我们', '2026', '的', '了', '年', '，', 'a', 'A']) expect(texts).not.toContain(dropped);
    expect(words[0]?.weight).toBe(1);
    // "font" and "Font" are one word, shown in its first most frequent spelling.
    expect(texts.filter((text) => text.toLowerCase() === 'font')).toHaveLength(1);
  });

  test('weighs words by how often they occur, strongest first, and keeps the limit', () => {
    const words = countWords(TEXT, 5);
    expect(words.map((word) => word.text)).toEqual(WORDS.slice(0, 5));
    expect(words.map((word) => word.weight)).toEqual([1, 0.95, 0.9, 0.85, 0.8]);
  });
});

describe('makeCloud', () => {
  let font: WordFont;
  beforeAll(async () => {
    font = await fixtureWordFont();
  });

  const request = (overrides: Partial<CloudRequest> = {}): CloudRequest =>
    heartCloudRequest(font, countWords(TEXT, 200), { width: 800, height: 700, seed: 3, ...overrides });

  test.each<[string, Partial<CloudRequest>]>([
    ['a heart, words turned a quarter or stacked upright', {}],
    ['one character of the font, words at free angles', { orientation: 'free' as const }],
    ['the whole canvas, words level', { shape: { kind: 'none' as const }, orientation: 'horizontal' as const }],
  ])('places every word in %s, no two overlapping and none leaving the shape', async (_name, overrides) => {
    const shaped = _name.startsWith('one character')
      ? { shape: { kind: 'character' as const, character: '中', font } }
      : {};
    const cloud = await makeCloud(request({ ...overrides, ...shaped }));
    expect(cloud.words.length).toBe(WORDS.length);
    const svg = await cloudSvg(request(overrides), cloud, 'text');
    const placed = wordsOfSvg(svg);
    expect(placed.map((word) => word.text).sort()).toEqual([...WORDS].sort());
    const conflicts = inkConflicts(font, placed, cloud.mask);
    expect(conflicts.inked).toBeGreaterThan(10_000);
    expect(conflicts.overlapping).toBe(0);
    expect(conflicts.outside).toBe(0);
    if (overrides.orientation === 'free') expect(placed.some((word) => word.angle % 90 !== 0)).toBe(true);
    if (overrides.orientation === 'horizontal')
      expect(placed.every((word) => word.angle === 0 && !word.vertical)).toBe(true);
  });

  test('sizes words by weight and leaves out words the font cannot draw', async () => {
    const words = [{ text: '人民', weight: 1 }, { text: '麒麟', weight: 0.9 }, ...countWords(TEXT, 200).slice(1)];
    const cloud = await makeCloud(request({ words }));
    expect(cloud.missing).toEqual(['麒麟']);
    const sizes = new Map(cloud.words.map((word) => [word.text, word.size]));
    expect(sizes.get('人民')).toBeGreaterThan(sizes.get('会议') ?? Number.POSITIVE_INFINITY);
  });

  test('draws the same cloud for the same seed, and another for another seed', async () => {
    const svgOf = async (seed: number) => await cloudSvg(request({ seed }), await makeCloud(request({ seed })), 'text');
    expect(await svgOf(5)).toBe(await svgOf(5));
    expect(await svgOf(6)).not.toBe(await svgOf(5));
  });

  test('writes a PNG of the canvas size, and SVGs with the words as an OTS-clean subset font or as outlines', async () => {
    const cloud = await makeCloud(request({ background: null }));
    const png = await cloudPng(request({ background: null }), cloud);
    const stats = await pngStats(png);
    expect([stats.width, stats.height]).toEqual([800, 700]);
    expect(stats.inked).toBeGreaterThan(5_000);

    const svg = await cloudSvg(request(), cloud, 'text');
    const embedded = /base64,([A-Za-z0-9+/=]+)\)/.exec(svg)?.[1];
    expect(embedded).toBeTruthy();
    const woff2 = new Uint8Array(Buffer.from(embedded ?? '', 'base64'));
    expect(passesOts(woff2)).toBe(true);
    const wanted = new Set(
      WORDS.join('')
        .split('')
        .map((ch) => ch.codePointAt(0)),
    );
    expect(new Set(cmapByFontTools(woff2).filter((cp) => cp > 0x20))).toEqual(wanted);

    const outlines = await cloudSvg(request(), cloud, 'outlines');
    expect(outlines).not.toContain('<text');
    expect((outlines.match(/<path /g) ?? []).length).toBeGreaterThanOrEqual(WORDS.join('').length);
    const rendered = await pngStats(
      new Uint8Array(await (await import('sharp')).default(Buffer.from(outlines)).png().toBuffer()),
    );
    expect(rendered.inked).toBeGreaterThan(5_000);
  });
});
