import { describe, expect, test } from 'vitest';
import { FONT_CATALOGUE } from '../../src/server/db/seed/font-catalogue.ts';
import { familyNameOf, foundryNamesOf } from '../../src/server/engine/wordcloud/font-names.ts';
import { countWords } from '../../src/server/engine/wordcloud/words.ts';

const wordsOf = (text: string) => countWords(text, 500).map((word) => word.text);

describe('the word cloud’s stop list', () => {
  test('drops common function words and their reduplications', () => {
    const functionWords = [
      '是否',
      '是不是',
      '有没有',
      '往往',
      '越来越',
      '在于',
      '常常',
      '渐渐',
      '纷纷',
      '看看',
      '想想',
      '好不好',
      '许许多多',
      '我们',
      '因为',
    ];
    const text =
      '这款字体是否适合标题，是不是要看字重，有没有授权也要问清。设计师往往从笔画入手，越来越多的人在于细节上用心。' +
      '我们常常渐渐发现，纷纷看看想想，好不好用许许多多人说了算，因为排版讲究。妈妈画星星。';
    const words = wordsOf(text);
    for (const word of functionWords) expect(words, word).not.toContain(word);
    for (const word of ['字体', '标题', '字重', '授权', '设计师', '笔画', '细节', '排版', '妈妈', '星星']) {
      expect(words, word).toContain(word);
    }
  });
});

describe('the word cloud’s dictionary', () => {
  test('keeps the name of every family in the catalogue and of its foundry whole', () => {
    const families = [...new Set(FONT_CATALOGUE.map((entry) => familyNameOf(entry.nameZh)))];
    const foundries = [...new Set(FONT_CATALOGUE.flatMap((entry) => foundryNamesOf(entry.foundry)))].filter(
      (name) => [...name].length >= 2,
    );
    const text = FONT_CATALOGUE.map((entry) => `我用${entry.nameZh}排了一版海报，出自${entry.foundry}之手。`).join('');
    const weights = new Map(countWords(text, 500).map((word) => [word.text, word.weight]));
    // 海报 stands in every sentence, so it is the strongest word and weights count sentences.
    expect(weights.get('海报')).toBe(1);
    for (const name of [...families, ...foundries]) {
      // Each name is one word, as often as the text names it: never cut, never left out.
      const named = FONT_CATALOGUE.filter(
        (entry) => familyNameOf(entry.nameZh) === name || foundryNamesOf(entry.foundry).includes(name),
      ).length;
      expect(weights.get(name), `${name} (after changing the catalogue, run npm run wordcloud:names)`).toBe(
        Math.round((named / FONT_CATALOGUE.length) * 1000) / 1000,
      );
    }
  });

  test('keeps common foundries and their families whole', () => {
    const words = wordsOf('方正兰亭黑出自方正，汉仪旗黑出自汉仪，华康少女体出自华康，造字工房悦黑出自造字工房。');
    for (const name of ['方正兰亭黑', '方正', '汉仪旗黑', '汉仪', '华康少女体', '华康', '造字工房悦黑', '造字工房']) {
      expect(words, name).toContain(name);
    }
    for (const piece of ['兰亭', '少女', '工房', '悦黑']) expect(words, piece).not.toContain(piece);
  });

  test('reads a family’s name as prose writes it, and a foundry’s every name', () => {
    expect(familyNameOf('思源黑体（繁体·香港）')).toBe('思源黑体');
    expect(familyNameOf('Zen Maru Gothic')).toBe('Zen Maru Gothic');
    expect(foundryNamesOf('Adobe · Google')).toEqual(['Adobe', 'Google']);
    expect(foundryNamesOf('站酷 ZCOOL')).toEqual(['站酷', 'ZCOOL']);
    expect(foundryNamesOf('Tamcy（昭源字体计划）')).toEqual(['Tamcy', '昭源字体计划']);
    expect(foundryNamesOf('M+ FONTS Project')).toEqual(['M+ FONTS Project']);
  });
});
