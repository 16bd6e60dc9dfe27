import { createRequire } from 'node:module';
import type { Jieba } from '@node-rs/jieba';
import { libraryFontNames } from './font-names.ts';
import { isStopWord } from './stop-words.ts';
import { CRAFT_TERMS, FONT_NAMES } from './type-terms.ts';

/** A word of the cloud and its weight, 0–1 (the strongest word weighs 1). */
export interface WeightedWord {
  text: string;
  weight: number;
}

/** Most words a cloud may hold. */
export const MAX_WORDS = 500;

const require = createRequire(import.meta.url);
let segmenter: Jieba | undefined;

let names: RegExp | undefined;

/**
 * jieba with its default dictionary plus the words of type design (字体设计, 字重 …), which the
 * general dictionary cuts in two. Loaded once per thread, on first use (about 200 ms).
 */
function jieba(): Jieba {
  if (!segmenter) {
    const { Jieba: JiebaClass } = require('@node-rs/jieba') as typeof import('@node-rs/jieba');
    const { dict } = require('@node-rs/jieba/dict') as { dict: Uint8Array };
    segmenter = JiebaClass.withDict(dict);
    segmenter.loadDict(Buffer.from(CRAFT_TERMS.map((term) => `${term} 200000 n`).join('\n')));
  }
  return segmenter;
}

/**
 * One pattern for every font and foundry name (the library's and the well-known ones), longest
 * first so 方正兰亭黑 wins over 方正. A dictionary weight only makes jieba likelier to keep a word,
 * and it never joins words across a space (Zen Maru Gothic), so names are found before it cuts.
 * A Latin name matches as whole words only, in any case.
 */
function namePattern(): RegExp {
  if (!names) {
    const all = [...new Set([...FONT_NAMES, ...libraryFontNames()])].sort((a, b) => b.length - a.length);
    const sources = all.map((name) => {
      const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
      const before = /^[A-Za-z0-9]/.test(name) ? '(?<![A-Za-z0-9])' : '';
      const after = /[A-Za-z0-9]$/.test(name) ? '(?![A-Za-z0-9])' : '';
      return `${before}${escaped}${after}`;
    });
    names = new RegExp(sources.join('|'), 'giu');
  }
  return names;
}

interface Token {
  word: string;
  tag: string;
  /** A font or foundry name: never a stop word. */
  name?: boolean;
}

/** Cuts text into tagged words, font names whole. */
function tokensOf(text: string): Token[] {
  const tokens: Token[] = [];
  let from = 0;
  for (const match of text.matchAll(namePattern())) {
    if (match.index > from) tokens.push(...jieba().tag(text.slice(from, match.index), true));
    tokens.push({ word: match[0].replace(/\s+/g, ' '), tag: 'nz', name: true });
    from = match.index + match[0].length;
  }
  if (from < text.length) tokens.push(...jieba().tag(text.slice(from), true));
  return tokens;
}

const HAN = /\p{Script=Han}/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const ONLY_DIGITS = /^[\p{N}.,%]+$/u;

/** Whether a cut token is worth a place in the cloud. */
function isWord(token: string, tag: string): boolean {
  if (!LETTER_OR_DIGIT.test(token) || ONLY_DIGITS.test(token)) return false;
  // A lone Latin letter or a lone hanzi is almost always a particle, a measure word or noise.
  if ([...token].length < 2) return false;
  return !isStopWord(token, tag);
}

/**
 * Cuts text into words with jieba and weighs them by how often they occur: font and foundry names
 * stay whole; function words (stop-words.ts), numbers, punctuation and single characters are left out; Latin words are counted without case and shown
 * in their most frequent spelling. Answers the `limit` strongest words, strongest first (ties keep
 * the order the words first appear in).
 */
export function countWords(text: string, limit = 200): WeightedWord[] {
  const counts = new Map<string, { count: number; spellings: Map<string, number>; first: number }>();
  tokensOf(text).forEach(({ word, tag, name }, index) => {
    const token = word.trim();
    if (!name && !isWord(token, tag)) return;
    const key = HAN.test(token) ? token : token.toLowerCase();
    const entry = counts.get(key) ?? { count: 0, spellings: new Map(), first: index };
    entry.count++;
    entry.spellings.set(token, (entry.spellings.get(token) ?? 0) + 1);
    counts.set(key, entry);
  });
  const ranked = [...counts.values()]
    .sort((a, b) => b.count - a.count || a.first - b.first)
    .slice(0, Math.max(1, Math.min(limit, MAX_WORDS)));
  const top = ranked[0]?.count ?? 1;
  return ranked.map(({ count, spellings }) => ({
    text: [...spellings.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '',
    weight: Math.round((count / top) * 1000) / 1000,
  }));
}
