import { pinyin } from 'pinyin-pro';
import { FONT_CATEGORIES, FONT_SCRIPTS } from '../../contract/fonts.ts';
import { FONT_CATALOGUE } from '../db/seed/font-catalogue.ts';
import { loadJieba } from '../native.ts';

// The words a font is found by beyond its names: what people type for it. Pinyin and its initials
// (思源黑体 → siyuanheiti, siyuan, heiti, syht), the names of its style in the words designers use
// (宋体 → 明朝, 明体, Song, Serif, Mincho…), of its script (日文 → 和文, Japanese…), and the
// catalogue's own aliases. pinyin-pro does the conversion when the search index is built; the
// browser never needs it.

/** What each style is also called, in Chinese, English and Japanese usage (with its pinyin). */
const CATEGORY_WORDS: Record<(typeof FONT_CATEGORIES)[number], string> = {
  黑体: '黑 黑体 无衬线 Sans Gothic 哥特 ゴシック',
  宋体: '宋 宋体 明体 明朝 明朝体 Song Serif Mincho Ming 衬线',
  楷体: '楷 楷体 楷书 Kai Kaiti 正楷',
  圆体: '圆 圆体 丸 丸黑 Rounded Maru',
  仿宋: '仿宋 仿宋体 Fangsong 宋朝体',
  手写: '手写 手写体 手书 Handwriting Script',
  书法: '书法 毛笔 行书 草书 Calligraphy Brush',
  艺术: '艺术 标题 展示 Display 创意',
  像素: '像素 点阵 Pixel Bitmap Dot',
};

const SCRIPT_WORDS: Record<(typeof FONT_SCRIPTS)[number], string> = {
  简体: '简体 简中 简体中文 SC Simplified',
  繁体: '繁体 繁中 繁體 繁体中文 TC HK Traditional',
  日文: '日文 和文 日语 日本 日系 Japanese JP',
};

const HAN = /\p{Script=Han}/u;

/** 思源黑体 → ['siyuanheiti', 'syht']: the whole name's pinyin and its initials. */
function pinyinOf(text: string): string[] {
  const han = [...text].filter((char) => HAN.test(char)).join('');
  if (!han) return [];
  const syllables = pinyin(han, { toneType: 'none', type: 'array' });
  const initials = pinyin(han, { pattern: 'first', toneType: 'none', type: 'array' });
  return [syllables.join(''), initials.join('')];
}

/** Every word people may type for a family, as one line of text for the search index. */
export function fontSearchKeywords(family: { gno: string; nameZh: string; category: string; script: string }): string {
  const words = new Set<string>();
  const add = (word: string) => {
    if (word.trim()) words.add(word.trim());
  };
  // The name without what its brackets add (思源黑体（简体） → 思源黑体 → syht), and whole.
  const base = family.nameZh.replace(/[（(][^）)]*[）)]/g, '').trim();
  for (const word of [...pinyinOf(base), ...pinyinOf(family.nameZh)]) add(word);
  // Each word of the name by itself too: 思源 → siyuan, sy; 黑体 → heiti, ht.
  for (const word of loadJieba().cut(family.nameZh, false)) {
    if (!HAN.test(word) || word.length < 2) continue;
    for (const spelled of pinyinOf(word)) add(spelled);
  }
  const category = FONT_CATEGORIES[Number(family.category) - 1];
  if (category) {
    for (const word of CATEGORY_WORDS[category].split(' ')) add(word);
    for (const spelled of pinyinOf(category)) add(spelled);
  }
  const script = FONT_SCRIPTS[Number(family.script) - 1];
  if (script) for (const word of SCRIPT_WORDS[script].split(' ')) add(word);
  const entry = FONT_CATALOGUE.find((candidate) => candidate.gno === family.gno);
  for (const alias of entry?.aliases ?? []) {
    add(alias);
    for (const spelled of pinyinOf(alias)) add(spelled);
  }
  return [...words].join(' ');
}
