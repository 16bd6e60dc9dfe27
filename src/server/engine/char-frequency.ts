import fs from 'node:fs';
import { createRequire } from 'node:module';
import { readFontDataFile } from './data-files.ts';

// How often each Chinese character is used, to order a font's characters so that the first
// web-font slices hold the text most pages need. The ranking is derived from the jieba
// dictionary that @node-rs/jieba ships (349 000 words with corpus frequencies, MIT licence): a
// character's weight is the sum of the frequencies of the words it appears in. Characters the
// dictionary lacks follow in the order of 通用规范汉字表 level 1 (already shipped for coverage).

const require = createRequire(import.meta.url);

/** Unified ideographs, extension A and the compatibility block: what the ranking covers. */
const isHan = (cp: number) =>
  (cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0x3400 && cp <= 0x4dbf) || (cp >= 0xf900 && cp <= 0xfaff);

/** Builds the ranking from jieba's dictionary text ("word frequency tag" per line) and a fallback order. */
export function rankCharacters(dictionary: string, fallbackOrder: string): Map<number, number> {
  const weights = new Map<number, number>();
  for (const line of dictionary.split('\n')) {
    const [word, frequency] = line.split(' ');
    const count = Number(frequency);
    if (!word || !Number.isFinite(count) || count <= 0) continue;
    for (const ch of word) {
      const cp = ch.codePointAt(0) ?? 0;
      if (isHan(cp)) weights.set(cp, (weights.get(cp) ?? 0) + count);
    }
  }
  const ranked = [...weights].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([cp]) => cp);
  const rank = new Map<number, number>();
  for (const cp of ranked) rank.set(cp, rank.size);
  for (const ch of fallbackOrder) {
    const cp = ch.codePointAt(0) ?? 0;
    if (isHan(cp) && !rank.has(cp)) rank.set(cp, rank.size);
  }
  return rank;
}

let cached: Map<number, number> | undefined;

/** The rank of each ranked Chinese character (0 = most frequent); built once, about 200 ms. */
export function characterRanking(): Map<number, number> {
  cached ??= rankCharacters(
    fs.readFileSync(require.resolve('@node-rs/jieba/dict.txt'), 'utf8'),
    readFontDataFile('tongyong-level1.txt').trim(),
  );
  return cached;
}
