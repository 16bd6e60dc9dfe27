import { createRequire } from 'node:module';
import type { Jieba } from '@node-rs/jieba';
import { STOP_WORDS } from './stop-words.ts';
import { TYPE_TERMS } from './type-terms.ts';

/** A word of the cloud and its weight, 0–1 (the strongest word weighs 1). */
export interface WeightedWord {
  text: string;
  weight: number;
}

/** Most words a cloud may hold. */
export const MAX_WORDS = 500;

const require = createRequire(import.meta.url);
let segmenter: Jieba | undefined;

/**
 * jieba with its default dictionary plus the words of type design (字体设计, 思源黑体 …), which the
 * general dictionary cuts in two. Loaded once per thread, on first use (about 200 ms).
 */
function jieba(): Jieba {
  if (!segmenter) {
    const { Jieba: JiebaClass } = require('@node-rs/jieba') as typeof import('@node-rs/jieba');
    const { dict } = require('@node-rs/jieba/dict') as { dict: Uint8Array };
    segmenter = JiebaClass.withDict(dict);
    segmenter.loadDict(Buffer.from(TYPE_TERMS.map((term) => `${term} 200000 n`).join('\n')));
  }
  return segmenter;
}

const HAN = /\p{Script=Han}/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const ONLY_DIGITS = /^[\p{N}.,%]+$/u;

/** Whether a cut token is worth a place in the cloud. */
function isWord(token: string): boolean {
  if (!LETTER_OR_DIGIT.test(token) || ONLY_DIGITS.test(token)) return false;
  // A lone Latin letter or a lone hanzi is almost always a particle, a measure word or noise.
  if ([...token].length < 2) return false;
  return !STOP_WORDS.has(token.toLowerCase());
}

/**
 * Cuts text into words with jieba and weighs them by how often they occur: stop words, numbers,
 * punctuation and single characters are left out; Latin words are counted without case and shown
 * in their most frequent spelling. Answers the `limit` strongest words, strongest first (ties keep
 * the order the words first appear in).
 */
export function countWords(text: string, limit = 200): WeightedWord[] {
  const counts = new Map<string, { count: number; spellings: Map<string, number>; first: number }>();
  const tokens = jieba().cut(text, true);
  tokens.forEach((raw, index) => {
    const token = raw.trim();
    if (!isWord(token)) return;
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
