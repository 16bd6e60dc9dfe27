import type { CatalogueEntry, SlicedFace, SlicedSource } from './font-catalogue-types.ts';

// The catalogue's families rebuilt from web-font slices (see SlicedSource), pinned like the others.

function sliced(
  scope: string,
  name: string,
  version: string,
  size: number,
  integrity: string,
  faces: readonly SlicedFace[],
  licenseFile?: string,
): SlicedSource {
  return { kind: 'sliced', scope, name, version, size, integrity, faces, ...(licenseFile ? { licenseFile } : {}) };
}

const WENKAI = {
  version: '1.7.0',
  size: 29561148,
  integrity: 'sha512-kVJmT4xMAyOLhG6q0w63wJkVU7RP8UMQRGoAWj9tnpzL7sWFFYiEHBdUQyW9myqBQFa5SQfWfa2VLYF4IJBL5g==',
};
const wenkaiFaces = (prefix: string, file: string): SlicedFace[] =>
  (['Light', 'Regular', 'Bold'] as const).map((style) => ({
    css: `${prefix}-${style.toLowerCase()}.css`,
    file: `${file}-${style}.ttf`,
  }));

/** A Google Fonts family packaged by fontsource (numbered WOFF2 slices plus script subsets) at weight 400. */
const fontsource = (name: string, version: string, size: number, integrity: string, family: string, file: string) =>
  sliced('@fontsource', name, version, size, integrity, [{ css: '400.css', family, weight: 400, file }], 'LICENSE');

/**
 * Chinese families that no npm package ships as whole fonts, only as web-font slices: each face is
 * rebuilt from its slices (and checked) when the family is seeded. All are under the SIL OFL 1.1.
 */
export const SLICED_FAMILIES: readonly CatalogueEntry[] = [
  {
    gno: 'lxgw-wenkai',
    nameZh: '霞鹜文楷',
    category: '楷体',
    script: '简体',
    license: 'OFL-1.1',
    foundry: '落霞与孤鹜（LXGW）',
    description:
      '以日本 Fontworks 的 Klee One 为基础扩充而成的开源楷体，笔画清秀、结构舒展，兼有手写的温度与印刷的整齐，适合正文、读书笔记与文艺排版，是中文开源字体里最常用的楷体之一。',
    aliases: ['文楷', 'LXGW WenKai', 'LXGW', '落霞孤鹜', 'Kai', '楷书'],
    source: sliced(
      '',
      'lxgw-wenkai-webfont',
      WENKAI.version,
      WENKAI.size,
      WENKAI.integrity,
      wenkaiFaces('lxgwwenkai', 'LXGWWenKai'),
      'OFL.txt',
    ),
  },
  {
    gno: 'lxgw-wenkai-mono',
    nameZh: '霞鹜文楷等宽',
    category: '楷体',
    script: '简体',
    license: 'OFL-1.1',
    foundry: '落霞与孤鹜（LXGW）',
    description: '霞鹜文楷的等宽版本，西文字母与数字等宽对齐，适合代码、表格、终端与需要字符对齐的文本。',
    aliases: ['文楷', 'LXGW WenKai Mono', 'LXGW', '等宽', 'Mono', 'Kai'],
    source: sliced(
      '',
      'lxgw-wenkai-webfont',
      WENKAI.version,
      WENKAI.size,
      WENKAI.integrity,
      wenkaiFaces('lxgwwenkaimono', 'LXGWWenKaiMono'),
      'OFL.txt',
    ),
  },
  {
    gno: 'lxgw-wenkai-tc',
    nameZh: '霞鹜文楷 TC',
    category: '楷体',
    script: '繁体',
    license: 'OFL-1.1',
    foundry: '落霞与孤鹜（LXGW）',
    description: '霞鹜文楷的繁体中文版本，字形依照台湾教育部标准楷书调整，适合繁体正文、诗词与教学材料。',
    aliases: ['文楷', '文楷繁体', 'LXGW WenKai TC', 'LXGW', 'Kai', '楷书'],
    source: sliced(
      '',
      'lxgw-wenkai-tc-webfont',
      '1.2.0',
      28191310,
      'sha512-e8bBix+1V/18FmZVMBlSqbOMKACisW9Xnyq1C+CNqd9L5VEwfW8JuG4/i5bsr9pFmrXnfjX8WZYu28lyjwh09A==',
      wenkaiFaces('lxgwwenkaitc', 'LXGWWenKaiTC'),
      'OFL.txt',
    ),
  },
  {
    gno: 'lxgw-wenkai-screen',
    nameZh: '霞鹜文楷 屏幕阅读版',
    category: '楷体',
    script: '简体',
    license: 'OFL-1.1',
    foundry: '落霞与孤鹜（LXGW）',
    description: '为屏幕阅读加粗笔画的霞鹜文楷（Screen 版），在小字号与低分辨率屏幕上更清楚，适合网页正文与电子书。',
    aliases: ['文楷', 'LXGW WenKai Screen', 'Screen', '屏显', 'LXGW', 'Kai'],
    source: sliced(
      '',
      'lxgw-wenkai-screen-webfont',
      '1.7.0',
      19475353,
      'sha512-xvfF4V26Mb335xKg3uxljz+V2nq4F5ek0ku9pmyKgT0Dzo/d2rHi7WpnqgvM9mlXAcAKOrxrcDmUZiIs/ZQ9bQ==',
      [{ css: 'lxgwwenkaiscreen.css', file: 'LXGWWenKaiScreen.ttf' }],
      'OFL.txt',
    ),
  },
  {
    gno: 'lxgw-wenkai-gb-screen',
    nameZh: '霞鹜文楷 GB 屏幕阅读版',
    category: '楷体',
    script: '简体',
    license: 'OFL-1.1',
    foundry: '落霞与孤鹜（LXGW）',
    description:
      '依照中国大陆《通用规范汉字表》字形调整的霞鹜文楷屏幕阅读版（GB 版），适合面向大陆读者的网页、教材与出版物。',
    aliases: ['文楷', 'LXGW WenKai GB Screen', 'GB', '屏显', 'LXGW', 'Kai'],
    source: sliced(
      '',
      'lxgw-wenkai-screen-webfont',
      '1.7.0',
      19475353,
      'sha512-xvfF4V26Mb335xKg3uxljz+V2nq4F5ek0ku9pmyKgT0Dzo/d2rHi7WpnqgvM9mlXAcAKOrxrcDmUZiIs/ZQ9bQ==',
      [{ css: 'lxgwwenkaigbscreen.css', file: 'LXGWWenKaiGBScreen.ttf' }],
      'OFL.txt',
    ),
  },
  {
    gno: 'smiley-sans',
    nameZh: '得意黑',
    category: '黑体',
    script: '简体',
    license: 'OFL-1.1',
    foundry: 'atelierAnchor（锚坊）',
    description: '锚坊设计的开源斜体黑体，字身修长、笔画利落，带有速度感与现代气息，适合海报、封面与品牌标题。',
    aliases: ['Smiley Sans', '得意', 'deyihei', 'Sans', 'Gothic'],
    source: sliced(
      '@chinese-fonts',
      'dyh',
      '1.4.0',
      1197318,
      'sha512-+otRfBjtaUZlYUSHcSijiUUf0t5YFqm0r8zn0kIV0ChM+ChV4hDTdECknwC3xGHEQO8QOw46Ybhkek7Z1ljH/Q==',
      [{ css: 'dist/SmileySans-Oblique/result.css', file: 'SmileySans-Oblique.ttf' }],
    ),
  },
  {
    gno: 'maoken-assorted-sans',
    nameZh: '猫啃什锦黑',
    category: '黑体',
    script: '简体',
    license: 'OFL-1.1',
    foundry: '猫啃网',
    description: '猫啃网发布的开源黑体，字形饱满、转角略带弧度，兼顾正文的清楚与标题的活泼，收字量大。',
    aliases: ['Maoken Assorted Sans', '什锦黑', 'Sans', 'Gothic'],
    source: sliced(
      '@chinese-fonts',
      'mksjh',
      '1.4.0',
      5536144,
      'sha512-N6YFjrRrvuX5YGld4OW7mWaZDPk++0fnVE9Yb+hmriNcrUi+hDlV3NS0gW5SSmV1hBS7WIi8rXXFlaH8Db5VEw==',
      [{ css: 'dist/MaokenAssortedSans1.30/result.css', file: 'MaokenAssortedSans.ttf' }],
    ),
  },
  {
    gno: 'source-han-serif-display',
    nameZh: '思源屏显臻宋',
    category: '宋体',
    script: '简体',
    license: 'OFL-1.1',
    foundry: 'chncwk（基于思源宋体）',
    description:
      '在思源宋体基础上为屏幕显示调整的宋体，横画加粗、字面更稳，在屏幕上读长文不易发虚，适合网页正文与电子书。',
    aliases: ['Source Han Serif CN for Display', '臻宋', '思源宋体', 'Song', 'Serif', '明朝'],
    source: sliced(
      '@chinese-fonts',
      'sypxzs',
      '3.0.0',
      9668783,
      'sha512-98B7462uIB5zxqRWbCWGe5ZmCts3+JWpJJycJ9cXHbnjgs+OldimFLXgU1+nsbptmzNrDALAIbSso9tyATydlA==',
      [{ css: 'dist/思源屏显臻宋/result.css', file: 'SourceHanSerifCNforDisplay.ttf' }],
    ),
  },
  {
    gno: 'huninn',
    nameZh: '粉圆',
    category: '圆体',
    script: '繁体',
    license: 'OFL-1.1',
    foundry: 'justfont',
    description:
      'justfont 以开源方式发布的繁体圆体（jf open 粉圆），笔画圆润、字怀开阔，亲切易读，适合生活类内容、儿童读物与界面文字。',
    aliases: ['Huninn', 'jf open 粉圆', '粉圓', 'Rounded'],
    source: fontsource(
      'huninn',
      '5.3.0',
      8401051,
      'sha512-aXA0W8ISDrhu1uU/aS/6sxbZg9OzRXn1EG9WbJquuI7LM1iPpkCqGlvAI1cH/xjkiggmRfgeu7FftYOLq7MGGQ==',
      'Huninn',
      'Huninn-Regular.ttf',
    ),
  },
  {
    gno: 'long-cang',
    nameZh: '有字库龙藏体',
    category: '书法',
    script: '简体',
    license: 'OFL-1.1',
    foundry: '有字库',
    description: '以行书手稿为蓝本的开源书法字体，笔势连贯、墨意浓淡有致，适合国风海报、书籍封面与题字。',
    aliases: ['Long Cang', '龙藏体', '行书', '毛笔'],
    source: fontsource(
      'long-cang',
      '5.3.0',
      12029042,
      'sha512-lCcBJb+LWZpYCVtGvQRiZPy5/EaGPuYLycpJXUIOz28EYGGqhTVWBRqY6ucaW8l1F8gvfjutY1PoAPUrFiP0wg==',
      'Long Cang',
      'LongCang-Regular.ttf',
    ),
  },
  {
    gno: 'iansui',
    nameZh: '芫荽',
    category: '手写',
    script: '繁体',
    license: 'OFL-1.1',
    foundry: 'ButTaiwan',
    description:
      '以 Klee One 为基础扩充的繁体中文开源字体，带有铅笔书写的楷书笔意，字形端正亲和，适合教材、卡片与温和的正文。',
    aliases: ['Iansui', '芫荽体', '楷书', 'Kai'],
    source: fontsource(
      'iansui',
      '5.3.0',
      12442754,
      'sha512-id4d5BwvRaJJn4tkLhyvbDWTDZ8Z1phjP3c1XFTkAV/uE+m+bAz28wsQWDADWACNNdLifMeohZ/Vepg7N5K5iA==',
      'Iansui',
      'Iansui-Regular.ttf',
    ),
  },
  {
    gno: 'lxgw-marker-gothic',
    nameZh: '霞鹜漫黑',
    category: '艺术',
    script: '简体',
    license: 'OFL-1.1',
    foundry: '落霞与孤鹜（LXGW）',
    description: '模仿马克笔书写的黑体，笔画粗细略有起伏，轻松活泼，适合漫画对白、手账与轻松主题的标题。',
    aliases: ['LXGW Marker Gothic', '漫黑', 'LXGW', 'Gothic', 'Sans'],
    source: fontsource(
      'lxgw-marker-gothic',
      '5.3.0',
      4716351,
      'sha512-MydZ34u77iS9fu30OzHBa5eHDcBEL+D9UEi7LqMJRJIqDDyZuchxRb07m0MIZfdGrQiKwj0oSIBrLzPoa0TR2A==',
      'LXGW Marker Gothic',
      'LXGWMarkerGothic-Regular.ttf',
    ),
  },
];
