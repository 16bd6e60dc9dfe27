// The words the tools overview's pictures show, and the library fonts each is set in (best first;
// the fixture seed used by tests holds only some of them).
import type { IllustrationText } from './illustration-fonts.ts';

/** The converter's glyph. */
export const CONVERTER_GLYPH = '永';
/** The subset picture's sheet of characters (the opening of 兰亭集序), and the ones a page keeps. */
export const SUBSET_SHEET = '永和九年岁在癸丑暮春之初会于稽山阴兰亭修禊事也群';
export const SUBSET_KEPT = '暮春兰亭';
/** The word cloud's words: text, size in px, the font key, accent or not, upright or turned. */
export const CLOUD_WORDS: Array<{
  text: string;
  size: number;
  font: 'cloud-a' | 'cloud-b' | 'cloud-c';
  accent?: boolean;
  turned?: boolean;
}> = [
  { text: '书法', size: 22, font: 'cloud-b', turned: true },
  { text: '排版', size: 18, font: 'cloud-c' },
  { text: '字体', size: 46, font: 'cloud-a', accent: true },
  { text: '笔画', size: 20, font: 'cloud-b' },
  { text: '设计', size: 28, font: 'cloud-c' },
  { text: '灵感', size: 16, font: 'cloud-a', turned: true },
  { text: '楷书', size: 24, font: 'cloud-b' },
  { text: '字距', size: 14, font: 'cloud-c' },
  { text: '造字', size: 30, font: 'cloud-a' },
  { text: '黑体', size: 17, font: 'cloud-c', turned: true },
  { text: '宋体', size: 19, font: 'cloud-b' },
];
/** The identification picture's photographed words: how 兰亭集序 opens. */
export const IDENTIFY_WORDS = '永和九年';

const cloudText = (font: string) =>
  CLOUD_WORDS.filter((word) => word.font === font)
    .map((word) => word.text)
    .join('');

/** Every text the pictures set in a library font. */
export const ILLUSTRATION_TEXTS: IllustrationText[] = [
  { key: 'converter', text: CONVERTER_GLYPH, gnos: ['ma-shan-zheng', 'noto-serif-sc', 'noto-sans-sc'] },
  { key: 'subset', text: SUBSET_SHEET, gnos: ['noto-serif-sc', 'noto-sans-sc'] },
  { key: 'cloud-a', text: cloudText('cloud-a'), gnos: ['zcool-kuaile', 'zcool-qingke-huangyou', 'noto-sans-sc'] },
  { key: 'cloud-b', text: cloudText('cloud-b'), gnos: ['ma-shan-zheng', 'zhi-mang-xing', 'noto-serif-sc'] },
  { key: 'cloud-c', text: cloudText('cloud-c'), gnos: ['noto-sans-sc'] },
  { key: 'identify', text: IDENTIFY_WORDS, gnos: ['zhi-mang-xing', 'ma-shan-zheng', 'liu-jian-mao-cao'] },
];
