import type { FontCategory, FontLicense, FontScript } from './font-dicts.ts';

/** An npm package that ships a family's full TTFs, pinned by version and integrity. */
export interface RegistrySource {
  kind: 'registry';
  /** Package name without its scope, e.g. 'noto-sans-sc' for '@expo-google-fonts/noto-sans-sc'. */
  name: string;
  scope: string;
  version: string;
  /** The registry's `dist.integrity` (sha512, base64); a download that differs is rejected. */
  integrity: string;
  /** Tarball size in bytes, for progress and to seed the smallest families first. */
  size: number;
}

/** A folder of test fixtures under tests/fixtures/fonts/ holding one family's TTFs. */
export interface FixtureSource {
  kind: 'fixture';
  dir: string;
}

/** What the site says about a family beyond what the font files say. */
export interface CatalogueEntry {
  /** SPEC fontGNo: a stable slug. */
  gno: string;
  nameZh: string;
  category: FontCategory;
  script: FontScript;
  license: FontLicense;
  foundry: string;
  /** An original one- or two-sentence Chinese description. */
  description: string;
  source: RegistrySource | FixtureSource;
}

const SCOPE = '@expo-google-fonts';

function expo(name: string, version: string, size: number, integrity: string): RegistrySource {
  return { kind: 'registry', scope: SCOPE, name, version, size, integrity };
}

/** The families seeded from the npm registry: SIL OFL fonts from Google Fonts, packaged by Expo. */
export const FONT_CATALOGUE: readonly CatalogueEntry[] = [
  {
    gno: 'noto-sans-sc',
    nameZh: '思源黑体（简体）',
    category: '黑体',
    script: '简体',
    license: 'OFL-1.1',
    foundry: 'Adobe · Google',
    description:
      'Adobe 与 Google 合作开发的开源黑体，Noto Sans SC 是它的简体中文版本，字形清晰、字重齐全，适合界面与正文排版。',
    source: expo(
      'noto-sans-sc',
      '0.4.3',
      56954252,
      'sha512-9rAwdFTFHbO/u6Cs0gj2jZbW74TGIiaFNQnXYH2s5wA1bzVkwbaviL4t8YUV642eGYjg86eH6DkAEQmfNHDncQ==',
    ),
  },
  {
    gno: 'noto-serif-sc',
    nameZh: '思源宋体（简体）',
    category: '宋体',
    script: '简体',
    license: 'OFL-1.1',
    foundry: 'Adobe · Google',
    description:
      'Adobe 与 Google 合作开发的开源宋体的简体中文版本，笔画兼具传统韵味与屏幕上的清晰，适合长文阅读和标题。',
    source: expo(
      'noto-serif-sc',
      '0.4.3',
      68620613,
      'sha512-fSmUpiSFtSeyHV45/2xUOy5SdfExklQwwMKN3cQjAZAujITHDmSbpMHCVdCMhRqMjQtu0ZRgc29u8A+CU3akfw==',
    ),
  },
  {
    gno: 'noto-sans-tc',
    nameZh: '思源黑体（繁体·台湾）',
    category: '黑体',
    script: '繁体',
    license: 'OFL-1.1',
    foundry: 'Adobe · Google',
    description: '思源黑体的繁体中文版本，字形依照台湾地区的标准字形设计，适合繁体界面与正文。',
    source: expo(
      'noto-sans-tc',
      '0.4.3',
      38808616,
      'sha512-69XAOTLPz0WlAxL6qJEKlDMxHsBd4J1M39HjV0gPF2o1xWVALOsVWvDgistnecVockA9wbU/tH5C/gyS2PdnHg==',
    ),
  },
  {
    gno: 'noto-serif-tc',
    nameZh: '思源宋体（繁体·台湾）',
    category: '宋体',
    script: '繁体',
    license: 'OFL-1.1',
    foundry: 'Adobe · Google',
    description: '思源宋体的繁体中文版本，字形依照台湾地区的标准字形设计，适合繁体书籍与长文排版。',
    source: expo(
      'noto-serif-tc',
      '0.4.4',
      47054838,
      'sha512-nNbTm4wez1oXI5K3296eY+S4Ud3aFigjmX0mwxV7L6F1GDCwqMdO5tfgGl4fhLti25GAmaKZy7HkiY6pYcEMlQ==',
    ),
  },
  {
    gno: 'noto-sans-hk',
    nameZh: '思源黑体（繁体·香港）',
    category: '黑体',
    script: '繁体',
    license: 'OFL-1.1',
    foundry: 'Adobe · Google',
    description: '思源黑体的香港繁体版本，字形依照香港《常用字字形表》设计，适合面向香港读者的界面与正文。',
    source: expo(
      'noto-sans-hk',
      '0.4.3',
      38782185,
      'sha512-jPBN2bE492eP4xPhUdmgbmYIOoqkzBPoF+upZYr9meQF3nuwY2ajmjMNtaSMrTlOXWV53td+ru/kFTcZ7/v7fg==',
    ),
  },
  {
    gno: 'noto-serif-hk',
    nameZh: '思源宋体（繁体·香港）',
    category: '宋体',
    script: '繁体',
    license: 'OFL-1.1',
    foundry: 'Adobe · Google',
    description: '思源宋体的香港繁体版本，字形依照香港《常用字字形表》设计，适合面向香港读者的正文与标题。',
    source: expo(
      'noto-serif-hk',
      '0.4.3',
      46960715,
      'sha512-TgG8I1I1cH1ZdgyFGGnxMzT9OibnJCujD8ykmt5x3s4V8/xcSOLF8jhX9oNr2vFeADFlc1nf0Fn5L+/ZqWLy7Q==',
    ),
  },
  {
    gno: 'zcool-kuaile',
    nameZh: '站酷快乐体',
    category: '艺术',
    script: '简体',
    license: 'OFL-1.1',
    foundry: '站酷 ZCOOL',
    description: '站酷网推出的免费商用字体，字形圆润俏皮、充满童趣，适合儿童、节日与轻松主题的标题。',
    source: expo(
      'zcool-kuaile',
      '0.4.2',
      1292512,
      'sha512-KkcHLXsOWzINR2ezf3bPpn4ePATD5JmG31Lif9/N1YkC1ZRyscwB3B5OV4svMjNtz5EE9XcK04JiIYfMAzUd3A==',
    ),
  },
  {
    gno: 'zcool-xiaowei',
    nameZh: '站酷小薇LOGO体',
    category: '宋体',
    script: '简体',
    license: 'OFL-1.1',
    foundry: '站酷 ZCOOL',
    description: '站酷网推出的免费商用标题字体，在宋体笔画上略加装饰，清秀而有文艺气息，适合标志与海报标题。',
    source: expo(
      'zcool-xiaowei',
      '0.4.1',
      3570310,
      'sha512-UshFhpSWZq9hhultiV3IwqyRimKQEJd1yCCBTBCF8gU5B5OMEMXFJcaVdy4D1jD5R30QvTnmhGOA94116mqQ1g==',
    ),
  },
  {
    gno: 'zcool-qingke-huangyou',
    nameZh: '站酷庆科黄油体',
    category: '艺术',
    script: '简体',
    license: 'OFL-1.1',
    foundry: '站酷 ZCOOL',
    description: '设计师郑庆科为站酷网设计的免费商用字体，字形方正、笔画粗壮醒目，适合海报与广告标题。',
    source: expo(
      'zcool-qingke-huangyou',
      '0.4.1',
      3621134,
      'sha512-7LRAXUkg7/BGuVfYQtyZqSE77f0W8YMq4C4dnub9BM68I+57P+I1Su7XGPqVe8aS6ET9VZjIqYuHx29b6s4Dyw==',
    ),
  },
  {
    gno: 'ma-shan-zheng',
    nameZh: '马善政毛笔楷书',
    category: '书法',
    script: '简体',
    license: 'OFL-1.1',
    foundry: '钟齐',
    description: '以马善政的毛笔楷书为蓝本、由钟齐字库制作的开源字体，笔力沉稳端正，适合书法风格的标题与文创设计。',
    source: expo(
      'ma-shan-zheng',
      '0.4.3',
      3903206,
      'sha512-takX5zcbMlLsCmCVtosX8/djtQ/lrKbbppcLAoukTmeEf94UFsHyOYuXtRi+XNh5Ts2tZDZUz2aWO4/4Z1uPjQ==',
    ),
  },
  {
    gno: 'zhi-mang-xing',
    nameZh: '志莽行书',
    category: '书法',
    script: '简体',
    license: 'OFL-1.1',
    foundry: '钟齐',
    description: '钟齐字库发布的开源行书字体，笔势流畅洒脱，适合需要手写书法气息的标题与文创。',
    source: expo(
      'zhi-mang-xing',
      '0.4.1',
      2851443,
      'sha512-5/Awkq/eZ+uePBZ7QnJphWGu68zbDibH/kaWdDogiLkJGaa28CreTpE95ckyE7eJGzK8m6MDJhkVzHVpwIcpzQ==',
    ),
  },
  {
    gno: 'liu-jian-mao-cao',
    nameZh: '刘建毛草',
    category: '书法',
    script: '简体',
    license: 'OFL-1.1',
    foundry: '刘建',
    description:
      '书法家刘建书写的毛笔草书字体，以开源协议发布，笔意连绵奔放；草书辨识度较低，适合短标题与装饰文字，不宜用于正文。',
    source: expo(
      'liu-jian-mao-cao',
      '0.2.3',
      2854306,
      'sha512-3EeJ2uwE/6t23zvlFnrU8d6/1qD7VX4MECrvL/ijnAaFnVqSpKSdV+cNdMBl6X5BvdxImnqn7+VQwWsJo5ZK2A==',
    ),
  },
  {
    gno: 'cactus-classical-serif',
    nameZh: '仙人掌明体',
    category: '宋体',
    script: '繁体',
    license: 'OFL-1.1',
    foundry: 'Moonlit Owen',
    description: '以 GlyphWiki 字形为基础的开源繁体明体（宋体），收字量大、风格古雅，适合古籍、诗词等繁体排版。',
    source: expo(
      'cactus-classical-serif',
      '0.4.5',
      16442178,
      'sha512-oVroqVwt+BXDXYooJfNiGuSKBoo3tyTCY+YAv748t+ANl+MZmpvfsP0dWFLNj8DcFr20UW6sVALrsSq/huax6g==',
    ),
  },
  {
    gno: 'dotgothic16',
    nameZh: 'DotGothic16',
    category: '像素',
    script: '日文',
    license: 'OFL-1.1',
    foundry: 'Fontworks',
    description:
      '日本 Fontworks 发布的开源点阵风格字体，以 16×16 像素网格为基调，收录日文常用汉字，适合复古游戏风格的设计。',
    source: expo(
      'dotgothic16',
      '0.4.1',
      814385,
      'sha512-ioNx6IGd+vFbFxWpNxtrOoiE8vecqIOQPsH72V3wyidMpf2AvQ3dUJEBgYoqOtcW7u54zJw39wXciP9yAA40EA==',
    ),
  },
  {
    gno: 'klee-one',
    nameZh: 'Klee One',
    category: '手写',
    script: '日文',
    license: 'OFL-1.1',
    foundry: 'Fontworks',
    description:
      '日本 Fontworks 发布的开源字体，笔触模仿铅笔书写的楷书，清晰亲切，收录日文常用汉字，适合教学材料与温和的正文。',
    source: expo(
      'klee-one',
      '0.4.1',
      8960216,
      'sha512-3hMj7H5o3mD6lNPPPew1dezDVe1T+CzxSnNfH0UxdOHhxYSbbnFWPNv5CjCgf7w3zJLLuvE4a9NLEUOE/5FpOQ==',
    ),
  },
];

function fixture(gno: string): CatalogueEntry {
  const entry = FONT_CATALOGUE.find((candidate) => candidate.gno === gno);
  if (!entry) throw new Error(`No catalogue entry ${gno}`);
  return { ...entry, source: { kind: 'fixture', dir: gno } };
}

/**
 * The test families: small subsets in tests/fixtures/fonts/ of three catalogue families
 * (one with two weights), seeded through the same pipeline without the network.
 */
export const FIXTURE_CATALOGUE: readonly CatalogueEntry[] = [
  fixture('zcool-kuaile'),
  fixture('ma-shan-zheng'),
  fixture('noto-sans-sc'),
];
