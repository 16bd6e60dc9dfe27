import fs from 'node:fs';
import { serverSource } from '../../paths.ts';

// The names of the library's families and foundries, for the word cloud to keep whole. They are
// derived from the font catalogue (src/server/db/seed/font-catalogue.ts) by `npm run
// wordcloud:names` into a data file beside the engine, since the engine reads nothing of the rest
// of the server; a unit test cuts a text naming every family of the catalogue, so a family added
// without refreshing the file is caught.

/** What the catalogue says of a family that names it. */
export interface NamedFamily {
  nameZh: string;
  foundry: string;
}

/** The file the names are kept in, one a line. */
export const FONT_NAMES_FILE = serverSource('engine', 'data', 'font-names.txt');

const HAN = /\p{Script=Han}/u;

/** A family's name as prose writes it: 思源黑体（简体） is 思源黑体. */
export function familyNameOf(nameZh: string): string {
  return nameZh.replace(/[（(][^）)]*[）)]/gu, '').trim();
}

/**
 * A foundry's names: joint foundries are split (Adobe · Google), a name in brackets is a name of its
 * own (Tamcy（昭源字体计划）), and a Chinese name with a Latin one beside it is two (站酷 ZCOOL).
 */
export function foundryNamesOf(foundry: string): string[] {
  const names: string[] = [];
  for (const part of foundry.split(/[·（）()]/u)) {
    const name = part.trim();
    if (!name) continue;
    const words = name.split(/\s+/u);
    const han = words.filter((word) => HAN.test(word));
    if (han.length > 0 && han.length < words.length) {
      names.push(han.join(''), words.filter((word) => !HAN.test(word)).join(' '));
    } else {
      names.push(name);
    }
  }
  return names;
}

/** Every name of the families and their foundries, each once, at least two characters long. */
export function fontNamesOf(families: readonly NamedFamily[]): string[] {
  const names = new Set<string>();
  for (const family of families) {
    for (const name of [familyNameOf(family.nameZh), ...foundryNamesOf(family.foundry)]) {
      if ([...name].length >= 2) names.add(name);
    }
  }
  return [...names].sort();
}

/** The library's names as last written by `npm run wordcloud:names`. */
export function libraryFontNames(): string[] {
  return fs
    .readFileSync(FONT_NAMES_FILE, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0 && !line.startsWith('#'));
}
