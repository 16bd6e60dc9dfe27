import { SLICED_FAMILIES } from './font-catalogue-sliced.ts';
import type { CatalogueEntry, RegistrySource } from './font-catalogue-types.ts';

export type {
  CatalogueEntry,
  DebianSource,
  FixtureSource,
  RegistrySource,
  SlicedFace,
  SlicedSource,
} from './font-catalogue-types.ts';
export { SLICED_FAMILIES };

const SCOPE = '@expo-google-fonts';

function expo(name: string, version: string, size: number, integrity: string): RegistrySource {
  return { kind: 'registry', scope: SCOPE, name, version, size, integrity };
}

/**
 * The families the site's own articles, albums and cases show (their covers are drawn in them). All
 * families are seeded once the server answers; the ones the content names come first, whichever
 * list holds them (library-plan.ts, seedingOrder).
 */
export const FIRST_FAMILIES: readonly CatalogueEntry[] = [
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
    nameZh: 'DotGothic16 日文点阵黑体',
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
    nameZh: 'Klee One 日文楷书',
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

/**
 * The rest of the library, seeded after the families the content names (smallest first), each
 * family shown as soon as it is indexed: more Chinese families and Japanese ones with kanji.
 */
export const BACKGROUND_FAMILIES: readonly CatalogueEntry[] = [
  {
    gno: 'chocolate-classical-sans',
    nameZh: '朱古力黑体',
    category: '黑体',
    script: '繁体',
    license: 'OFL-1.1',
    foundry: '田海东 · 宇文满月',
    description:
      '以思源黑体为底稿、按传承字形重新整理的繁体黑体，字形端正，保留了不少旧字形写法，适合古籍整理、文史读物与偏好传统字形的繁体排版。',
    source: expo(
      'chocolate-classical-sans',
      '0.4.4',
      7755783,
      'sha512-AWNTBSC/cWGYAVzchi8ucykTxv2gKXCDSspLiSSdnGJq2pwMY+V0Zmn5JpRnHg2Uc0Bo/rltZWo4wVYrk9ArIA==',
    ),
  },
  {
    gno: 'chiron-goround-tc',
    nameZh: '昭源甜圆体',
    category: '圆体',
    script: '繁体',
    license: 'OFL-1.1',
    foundry: 'Tamcy（昭源字体计划）',
    description:
      '昭源字体计划在思源黑体基础上把笔画收成圆头的繁体圆体，从极细到特粗共八个字重，气质柔和亲切，适合生活类刊物、儿童读物与品牌标题。',
    source: expo(
      'chiron-goround-tc',
      '0.4.2',
      101415354,
      'sha512-v4ZsoaWFdAimAE2y0kgm3XTVqw7q52FYWbNhNofVyfAySWr2vDnC/TR5PQifzxaXDFA/Mil+BMo33Eq3e4+fZQ==',
    ),
  },
  {
    gno: 'noto-sans-jp',
    nameZh: '思源黑体（日文）',
    category: '黑体',
    script: '日文',
    license: 'OFL-1.1',
    foundry: 'Adobe · Google',
    description: '思源黑体的日文版本，汉字与假名依照日本的字形习惯设计，九个字重齐全，适合日文网站、界面和说明文字。',
    source: expo(
      'noto-sans-jp',
      '0.4.3',
      28996407,
      'sha512-Fl+Z6vtD24HFAYsvzB0S9Nery1ly16B9PesdY0wBd+wEHAvkNglnkTUspU0HqGOubkmoa8zusJrKv6vDx1o70A==',
    ),
  },
  {
    gno: 'noto-serif-jp',
    nameZh: '思源宋体（日文）',
    category: '宋体',
    script: '日文',
    license: 'OFL-1.1',
    foundry: 'Adobe · Google',
    description: '思源宋体的日文版本，即日本所称的明朝体，横细竖粗、假名秀雅，适合日文书籍、长文和正式的标题。',
    source: expo(
      'noto-serif-jp',
      '0.4.3',
      34884390,
      'sha512-IxEWO9BPugsyuOf57Bx1qkR4J8EnGnF0ZPBBOPyFa1qJyfW8Dcuwn5OIGa9om+PhFO1/E1dQjZCygqaY6uAubg==',
    ),
  },
  {
    gno: 'm-plus-rounded-1c',
    nameZh: 'M PLUS Rounded 1c 日文圆体',
    category: '圆体',
    script: '日文',
    license: 'OFL-1.1',
    foundry: 'M+ FONTS Project',
    description: 'M+ 字体计划的圆体版本，笔画末端圆润，从极细到特粗七个字重，适合亲和风格的界面、标识和宣传物料。',
    source: expo(
      'm-plus-rounded-1c',
      '0.4.4',
      11715391,
      'sha512-qGl+hIQLzVL73svgaTktKN8AyQYjYxBG3W2axoxhpVo/KmcICrnVlgFGfuc0r3flQ4KJlnv1UKzmYoRV7sPRpA==',
    ),
  },
  {
    gno: 'm-plus-1p',
    nameZh: 'M PLUS 1p 日文黑体',
    category: '黑体',
    script: '日文',
    license: 'OFL-1.1',
    foundry: 'M+ FONTS Project',
    description: 'M+ 字体计划的比例宽度黑体，字形简洁现代，七个字重便于区分层级，适合日文界面与信息图表。',
    source: expo(
      'm-plus-1p',
      '0.4.2',
      7571552,
      'sha512-9BQljCxy+4MssAvXXq2By6RbF2lmGfamu2mTUo+/NmbMEsG6Pzw3Se6hyoQuVllaPxURttf44yVWbaEiy6cGtw==',
    ),
  },
  {
    gno: 'sawarabi-gothic',
    nameZh: '早蕨黑体 Sawarabi Gothic',
    category: '黑体',
    script: '日文',
    license: 'OFL-1.1',
    foundry: 'mshio',
    description: '日本开源项目“早蕨字体”的黑体，字面朴素清爽，收录日文常用汉字，适合网页正文与小字号说明。',
    source: expo(
      'sawarabi-gothic',
      '0.4.2',
      1231702,
      'sha512-Dgj0eOnoEQ8dFy0+0Rpx7R2/YA8AQO96fHoSG9+quamonABPBQ1CGhB94STOp+9TOwDvBFI48v5d4S8tg8uM2Q==',
    ),
  },
  {
    gno: 'sawarabi-mincho',
    nameZh: '早蕨明朝 Sawarabi Mincho',
    category: '宋体',
    script: '日文',
    license: 'OFL-1.1',
    foundry: 'mshio',
    description: '“早蕨字体”项目的明朝体，笔画细劲清秀，收字量不大，适合日文短文与标题。',
    source: expo(
      'sawarabi-mincho',
      '0.4.1',
      2009764,
      'sha512-PDYAVzELayZhDvTSL+79sWw+RpHnDxVwz0arvT0l0HnR71NhRCOh2qvVHI/KdtDxe0Gl3QiV1nxQ2qSn1bVqRQ==',
    ),
  },
  {
    gno: 'kosugi-maru',
    nameZh: '小杉圆体 Kosugi Maru',
    category: '圆体',
    script: '日文',
    license: 'Apache-2.0',
    foundry: 'MOTOYA',
    description: '日本老牌字体厂商 MOTOYA 开源的圆体，字形饱满、笔画均匀，适合标牌、教材和需要亲切感的界面文字。',
    source: expo(
      'kosugi-maru',
      '0.4.1',
      2201776,
      'sha512-9qVOiqDFUaDtOpfyNkrgKzKOmUZSgjEEaPKt2RyeQDb1/WQR6uoJjPILi8Vxw46Se+NfMJvHWB2jzE9Y0BoZ0w==',
    ),
  },
  {
    gno: 'shippori-mincho',
    nameZh: 'Shippori Mincho 日文明朝',
    category: '宋体',
    script: '日文',
    license: 'OFL-1.1',
    foundry: 'FONTDASU',
    description:
      'FONTDASU 出品的明朝体，带有老式金属活字的韵味，假名线条灵动，五个字重，适合文学书籍与有年代感的标题。',
    source: expo(
      'shippori-mincho',
      '0.4.1',
      23635490,
      'sha512-+nyw31jQWKm8GJLU1kcDYBRJ9jIp/8H6R1RSipkXQMf3+GIKSR3l8zJxuyoeal2+EzFDgo/xFQceM24MItobyA==',
    ),
  },
  {
    gno: 'zen-maru-gothic',
    nameZh: 'Zen Maru Gothic 日文圆体',
    category: '圆体',
    script: '日文',
    license: 'OFL-1.1',
    foundry: 'Yoshimichi Ohira',
    description: 'Zen 系列的圆体，在黑体骨架上把笔画端点和转角修得圆润，五个字重，适合生活方式、育儿类内容与界面。',
    source: expo(
      'zen-maru-gothic',
      '0.4.1',
      11159696,
      'sha512-DCDiIfyvhsq4geQRW5WBf2cxIU4qdz95RMcBMXsUgCORZUcLQEyKG/UwaRWjEBp+94GnnPEVEklhSa6DGn2raA==',
    ),
  },
  {
    gno: 'zen-kaku-gothic-new',
    nameZh: 'Zen Kaku Gothic New 日文黑体',
    category: '黑体',
    script: '日文',
    license: 'OFL-1.1',
    foundry: 'Yoshimichi Ohira',
    description: 'Zen 系列的方头黑体，字怀宽阔、笔画利落，五个字重，适合日文正文、界面和报告文档。',
    source: expo(
      'zen-kaku-gothic-new',
      '0.4.1',
      7555497,
      'sha512-Vm9sib0Auc/lP3K6ZvtizZdsLjUETut1hC6FL/UdM24DOXO8iZ9zfl3Fia94OFqGVDLQmnnegm5goYCXU5Lxyg==',
    ),
  },
  {
    gno: 'zen-old-mincho',
    nameZh: 'Zen Old Mincho 日文旧明朝',
    category: '宋体',
    script: '日文',
    license: 'OFL-1.1',
    foundry: 'Yoshimichi Ohira',
    description: 'Zen 系列的旧式明朝体，笔画起收带有毛笔的顿挫，古朴温厚，适合诗文、和风包装与传统题材的标题。',
    source: expo(
      'zen-old-mincho',
      '0.4.1',
      15112448,
      'sha512-rOSy2ZJYeBgND42L9zbxx4Snnip9ktILI62qQ0gVky07BbogJJPaIZcWpasBpfNxIgKks3+a58DaPda1XOXeNg==',
    ),
  },
  {
    gno: 'kaisei-tokumin',
    nameZh: 'Kaisei Tokumin 日文粗明朝',
    category: '宋体',
    script: '日文',
    license: 'OFL-1.1',
    foundry: 'Font-Kai',
    description:
      'Font-Kai 出品的 Kaisei 系列中偏粗的一款明朝体，横画也较厚重，醒目而不失古典，适合海报与书籍封面标题。',
    source: expo(
      'kaisei-tokumin',
      '0.4.1',
      11245061,
      'sha512-/Fr2JujNoRLFjpK5x0pHlkqltkQpvz3e5Tq2zS0gKO2MvJxKJ9mRsvfUp2xMO3AXMn6ELCVfwtdsMnbfqaEYqw==',
    ),
  },
  {
    gno: 'yuji-syuku',
    nameZh: 'Yuji Syuku 日文毛笔楷书',
    category: '书法',
    script: '日文',
    license: 'OFL-1.1',
    foundry: 'Kataoka Yuji',
    description: '以毛笔书写的楷书风格字体，笔锋饱满、端庄有力，适合和风题字、菜单与节庆海报。',
    source: expo(
      'yuji-syuku',
      '0.4.1',
      5087042,
      'sha512-QJiK59IQ0W0Fme/X4CdxAItpCCNj+iGuz/EAFo02Nce7CtOiHvSKdzzsLAlI2s9fpnLGfsNyDX7jBOOlrJ8Q9Q==',
    ),
  },
  {
    gno: 'hina-mincho',
    nameZh: 'Hina Mincho 日文手绘明朝',
    category: '宋体',
    script: '日文',
    license: 'OFL-1.1',
    foundry: 'satsuyako',
    description: '笔画带手绘感的明朝体，字形轻巧、略显稚拙，给人温柔的文艺气息，适合绘本、散文与手作品牌。',
    source: expo(
      'hina-mincho',
      '0.4.1',
      2820819,
      'sha512-mnbHPLCrBu+PIorltJWV3hjv6AypbefI8+FeD2R3vTc10m+Oxc+kkMhxX4IScftiuxl7zLOsi3T/L5XBRriJ8w==',
    ),
  },
  {
    gno: 'dela-gothic-one',
    nameZh: 'Dela Gothic One 日文特粗黑体',
    category: '艺术',
    script: '日文',
    license: 'OFL-1.1',
    foundry: 'artakana',
    description: '笔画极粗、字面紧凑的展示用黑体，视觉冲击力强，适合海报、游戏标题和短促有力的口号。',
    source: expo(
      'dela-gothic-one',
      '0.4.1',
      1777031,
      'sha512-+SqDc2MBfQdDeTsVZs8cw0QL5plZgTTyuZerkiwZVwoygG+//WMrOZ/d2QC37DlJWRNN69MVSNqo3d9xg0iunw==',
    ),
  },
  {
    gno: 'yusei-magic',
    nameZh: 'Yusei Magic 日文马克笔体',
    category: '手写',
    script: '日文',
    license: 'OFL-1.1',
    foundry: 'Tanukizamurai',
    description: '模仿油性马克笔书写的手写体，笔画粗细均匀、略带随性，适合店头手写招贴、便签风格的说明文字。',
    source: expo(
      'yusei-magic',
      '0.4.2',
      1648446,
      'sha512-zCIjGDkGwcV+RO0avW74ooYfmSWFceXZVMBXJ9zSgaloRW0OKRUqfWzcl+CXskedgGOxD61xsEKzxvFShMaDSQ==',
    ),
  },
  {
    gno: 'rocknroll-one',
    nameZh: 'RocknRoll One 日文展示体',
    category: '艺术',
    script: '日文',
    license: 'OFL-1.1',
    foundry: 'Fontworks',
    description:
      'Fontworks 发布的粗体展示字体，转角圆润、笔画有弹性，活泼又带点摇滚味，适合娱乐、音乐和年轻品牌的标题。',
    source: expo(
      'rocknroll-one',
      '0.4.1',
      1817645,
      'sha512-Cs4slN04Ij215DhdmL4f8d2cm+DMewNHR4JRTW0V8+HHDrWmGqPYHY7SMfJX1CcSm869afsvdOyvMq86pRQLxA==',
    ),
  },
  {
    gno: 'kiwi-maru',
    nameZh: 'Kiwi Maru 日文圆体',
    category: '圆体',
    script: '日文',
    license: 'OFL-1.1',
    foundry: 'Hiroki-Chan',
    description: '带有明朝体笔意的圆体，柔和中保留了横竖的粗细变化，三个字重，适合温馨的正文、绘本与生活类杂志。',
    source: expo(
      'kiwi-maru',
      '0.4.1',
      8051042,
      'sha512-Ku9dxRshLkpxOWuCcqRQtJaKcnOolq+hiMIkqPoBTngnDViAppihhWbA4pv/EHr6zlGy3UtNOGupkl5lJThlZw==',
    ),
  },
  {
    gno: 'hachi-maru-pop',
    nameZh: 'Hachi Maru Pop 日文少女手写体',
    category: '手写',
    script: '日文',
    license: 'OFL-1.1',
    foundry: 'Nontynet',
    description: '再现日本八十年代女学生流行的圆润手写字，俏皮可爱，适合少女风格、萌系插画和轻松的社交媒体图片。',
    source: expo(
      'hachi-maru-pop',
      '0.4.1',
      2877580,
      'sha512-Aay9Y5BoFgYky0ctL9envPSjIPyVQN7eNBekPtL96b7f8n0vF91ZyhaP4DXZvdw36ZuvfW4ANX57kBeNFzAg+A==',
    ),
  },
  {
    gno: 'biz-udmincho',
    nameZh: 'BIZ UD明朝 日文通用设计明朝',
    category: '宋体',
    script: '日文',
    license: 'OFL-1.1',
    foundry: 'Morisawa',
    description: '森泽以通用设计理念制作的明朝体，笔画对比克制、字形清楚易辨，适合公文、教材和长篇阅读。',
    source: expo(
      'biz-udmincho',
      '0.4.0',
      8644357,
      'sha512-gcbsHsSU+HYNzkxy4UTKuRxmll4ydLCVHxxWSa3rUc7xZ7GlwF/cNB8LZUN66L+GjiRwmpXN7h8jXivE5E+dJQ==',
    ),
  },
  {
    gno: 'biz-udpgothic',
    nameZh: 'BIZ UDP黑体 日文通用设计黑体',
    category: '黑体',
    script: '日文',
    license: 'OFL-1.1',
    foundry: 'Morisawa',
    description: '森泽通用设计系列的比例宽度黑体，字怀开阔、易读性高，适合公共标识、表格和面向各年龄层的资料。',
    source: expo(
      'biz-udpgothic',
      '0.4.2',
      6157536,
      'sha512-HySo5PUz//XzvqKTKiOcgvdFuyPvJBIrnhhEW7l+Q1sqxblzzHuXhIaiYx4VdLjLbNA1fNaMdTgM7wj2k1FYBQ==',
    ),
  },
  {
    gno: 'yomogi',
    nameZh: 'Yomogi 日文细笔手写体',
    category: '手写',
    script: '日文',
    license: 'OFL-1.1',
    foundry: 'satsuyako',
    description: '细笔手写体，字形轻松随意，像在笔记本上写下的留言，适合手账、贺卡与亲切的短句。',
    source: expo(
      'yomogi',
      '0.4.1',
      2443378,
      'sha512-NfhwUbglIIkcG8xdKENgW12Db9+Ooz1lv9TFZ4PpDe8Mcn+m8KnaiGZ/dOOixWMT0tTBV8JmNg2sYQ2OU2G+Jw==',
    ),
  },
  {
    gno: 'mochiy-pop-one',
    nameZh: 'Mochiy Pop One 日文流行体',
    category: '艺术',
    script: '日文',
    license: 'OFL-1.1',
    foundry: 'FONTDASU',
    description: 'FONTDASU 出品的流行体，笔画圆胖、像年糕一样软糯，适合零食包装、儿童节目和卡通风格的标题。',
    source: expo(
      'mochiy-pop-one',
      '0.4.1',
      3126114,
      'sha512-7XCXK3EnKX4lqnYptzioNzmp22wAOtGCyIqEBDC/X74tvNEsQtxfnBkhXTuaDRLPmek60501LvlnDQKcgRWDoQ==',
    ),
  },
  {
    gno: 'reggae-one',
    nameZh: 'Reggae One 日文展示体',
    category: '艺术',
    script: '日文',
    license: 'OFL-1.1',
    foundry: 'Fontworks',
    description: 'Fontworks 发布的展示字体，笔画粗壮、转角带方形切口，富有节奏感，适合漫画、游戏和街头风格的标题。',
    source: expo(
      'reggae-one',
      '0.4.1',
      1609077,
      'sha512-vH/PAeLi3Fq0eb8JhHcuunKqWVDVkbM2XnmTZVT1CeqQTdhy3ZaJnub+3rhZ6CGyR0diLFJ5lRSkXtHaCQcQrQ==',
    ),
  },
  {
    gno: 'potta-one',
    nameZh: 'Potta One 日文毛笔手写体',
    category: '手写',
    script: '日文',
    license: 'OFL-1.1',
    foundry: '108go',
    description: '用毛笔随手写成的粗体，墨色浓重、憨态可掬，适合和风小店的招牌、菜单与轻松的节日海报。',
    source: expo(
      'potta-one',
      '0.4.1',
      2809105,
      'sha512-QGpqB8ePc2oqD9sbvI/9+A+Gtit1h+krUKtaihzhJvwKkN55idl2JosUUKQIZeaMJQFjhGC9/iKTGMDLzhDFWg==',
    ),
  },
  {
    gno: 'zen-kurenaido',
    nameZh: 'Zen Kurenaido 日文细毛笔手写体',
    category: '手写',
    script: '日文',
    license: 'OFL-1.1',
    foundry: 'Yoshimichi Ohira',
    description: 'Zen 系列的手写体，以细笔软毛笔书写，线条纤细流畅，适合书信、请柬与清雅的短文。',
    source: expo(
      'zen-kurenaido',
      '0.4.1',
      2249371,
      'sha512-r+8gv8cbztIGq09gw59jVnmbFLNFfOtfke2FEG7w7dZw1Ey3UJXxTUw4Odb+meitYqcHF5wBD2ju+UVXVhTrXA==',
    ),
  },
];

/**
 * Families no npm package ships, taken from Debian's archive (DEBIAN_MIRROR), pinned by the SHA-256
 * and size of Debian's Packages index (bookworm, main).
 */
export const DEBIAN_FAMILIES: readonly CatalogueEntry[] = [
  {
    gno: 'cwtex-fangsong',
    nameZh: 'cwTeX 仿宋',
    category: '仿宋',
    script: '繁体',
    license: 'GPL-2.0-or-later-font-exception',
    foundry: 'cwTeX（吳聰敏、吳聰慧）',
    description:
      '吳聰敏、吳聰慧为 cwTeX 中文排版系统制作的仿宋，笔画细挺、横画微微上扬，带着刻本仿宋的清秀，适合繁体的引文、注释、公文与诗词排版。',
    aliases: ['仿宋', 'fangsong', 'FangSong', 'fs', 'cwTeX', 'cwfs', '吳聰敏', '吳聰慧', '吴聪敏', '吴聪慧'],
    source: {
      kind: 'debian',
      package: 'fonts-cwtex-fs',
      version: '1.0-4',
      filename: 'pool/main/f/fonts-cwtex/fonts-cwtex-fs_1.0-4_all.deb',
      sha256: '94b4ce9d2fd613e04bcf2e293011ca5099b43d8a8a97c090580fe25d31845850',
      size: 5636612,
    },
  },
];

/**
 * The families seeded from the npm registry: SIL OFL (and one Apache) fonts, from packages that ship
 * the full TTFs, and Chinese families rebuilt from web-font slices where that is the only source;
 * then the families only Debian packages ship.
 */
export const FONT_CATALOGUE: readonly CatalogueEntry[] = [
  ...FIRST_FAMILIES,
  ...BACKGROUND_FAMILIES,
  ...SLICED_FAMILIES,
  ...DEBIAN_FAMILIES,
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
