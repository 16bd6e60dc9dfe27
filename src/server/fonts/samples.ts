import { scriptLabelOf } from '../../contract/fonts.ts';
import { db as configuredDb, type Db } from '../db/client.ts';
import { coverageSets } from '../engine/charsets.ts';
import { fontCodePoints } from './glyphs.ts';
import { resolveFaces } from './resolve.ts';

// The default texts a face is shown in, until the visitor types their own. One Simplified sentence
// for every face made half the library look broken: Traditional and Japanese faces lack 岁, and the
// page marked it missing. So each face gets a text of its own script that it covers entirely: the
// first candidate it has every character of; a punctuation mark it lacks becomes a full-width space
// (never marked missing); failing every candidate, a line of its own most common characters.

/** A face's default texts: a line for rows and the specimen, a paragraph, and a Latin line ('' when it has too little Latin). */
export interface FaceSamples {
  line: string;
  paragraph: string;
  latin: string;
}

/** Candidates per script, best first. The paragraph falls back clause by clause (see fitParagraph). */
const LINES: Record<string, readonly string[]> = {
  简体: ['永和九年，岁在癸丑，暮春之初', '春眠不觉晓，处处闻啼鸟', '天地玄黄，宇宙洪荒', '春江花月夜'],
  繁体: ['永和九年，歲在癸丑，暮春之初', '春眠不覺曉，處處聞啼鳥', '天地玄黃，宇宙洪荒', '春江花月夜'],
  日文: ['吾輩は猫である。名前はまだ無い。', 'いろはにほへと　ちりぬるを', '春はあけぼの', 'あいうえお　アイウエオ'],
};

const PARAGRAPHS: Record<string, string> = {
  简体: '永和九年，岁在癸丑，暮春之初，会于会稽山阴之兰亭，修禊事也。群贤毕至，少长咸集。此地有崇山峻岭，茂林修竹，又有清流激湍，映带左右。',
  繁体: '永和九年，歲在癸丑，暮春之初，會于會稽山陰之蘭亭，修禊事也。群賢畢至，少長咸集。此地有崇山峻嶺，茂林修竹，又有清流激湍，映帶左右。',
  日文: '吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。何でも薄暗いじめじめした所でニャーニャー泣いていた事だけは記憶している。吾輩はここで始めて人間というものを見た。',
};

const LATIN = 'ABCDEFGHIJKLMN abcdefghijklmn 0123456789';

/** Punctuation a face may lack without losing the sense of the text: it is set as a full-width space. */
const PUNCTUATION = new Set('，。、；：？！「」『』（）《》〈〉—…·,.;:?!()'.split(''));
/** Spaces are never marked missing (the preview service does not count them). */
const SPACES = new Set([' ', '\u3000']);

/** The samples of a script; a script the site does not know reads as Simplified. */
function scriptKey(script: string): string {
  return script in LINES ? script : '简体';
}

/** The text with missing punctuation blanked, or null when a character that carries meaning is missing. */
function fitLine(text: string, has: (cp: number) => boolean): string | null {
  let out = '';
  for (const ch of text) {
    if (SPACES.has(ch) || has(ch.codePointAt(0) ?? 0)) out += ch;
    else if (PUNCTUATION.has(ch)) out += '\u3000';
    else return null;
  }
  return out.trim() ? out : null;
}

/** The paragraph without the clauses whose characters the face lacks; null when less than a third is left. */
function fitParagraph(text: string, has: (cp: number) => boolean): string | null {
  const clauses = text.match(/[^，。、；：？！]+[，。、；：？！]?/g) ?? [text];
  const kept = clauses.map((clause) => fitLine(clause, has)).filter((clause): clause is string => clause !== null);
  const joined = kept.join('').replace(/[\u3000]+$/, '');
  return [...joined].length * 3 >= [...text].length ? joined : null;
}

/** A line of the face's own characters in the order of 通用规范汉字表, for a face no candidate fits. */
function ownLine(has: (cp: number) => boolean, codePoints: Iterable<number>, length: number): string {
  const picked: string[] = [];
  for (const cp of coverageSets().tongyong) {
    if (picked.length >= length) break;
    if (has(cp)) picked.push(String.fromCodePoint(cp));
  }
  if (picked.length < length) {
    for (const cp of codePoints) {
      if (picked.length >= length) break;
      if (cp > 0x20 && cp !== 0x7f) picked.push(String.fromCodePoint(cp));
    }
  }
  return picked.join('');
}

/** Chooses a face's default texts from what it maps (pure: `codePoints` is the face's cmap). */
export function chooseSamples(script: string, codePoints: ReadonlySet<number>): FaceSamples {
  const has = (cp: number) => codePoints.has(cp);
  const key = scriptKey(script);
  const line =
    (LINES[key] ?? []).map((text) => fitLine(text, has)).find((text) => text !== null) ?? ownLine(has, codePoints, 12);
  const paragraph = fitParagraph(PARAGRAPHS[key] ?? '', has) ?? ownLine(has, codePoints, 60);
  const latinKept = [...LATIN].filter((ch) => ch === ' ' || has(ch.codePointAt(0) ?? 0)).join('');
  const latin = latinKept.replace(/\s/g, '').length * 2 >= LATIN.replace(/\s/g, '').length ? latinKept : '';
  return { line, paragraph, latin };
}

const chosen = new Map<string, FaceSamples>();
const MAX_CHOSEN = 4096;

/**
 * The default texts of the fonts these gnos name (a family gno stands for its regular face), by
 * gno, each for its family's script (the 'script' dict number, as fonts carry it). Each face's cmap is
 * read once (glyphs.ts keeps it in storage); the choice is kept in memory by file and script.
 */
export async function defaultSamples(
  fonts: ReadonlyArray<{ fontGNo: string; script: string }>,
  database?: Db,
): Promise<Map<string, FaceSamples>> {
  const db = database ?? (await configuredDb());
  const faces = await resolveFaces(
    db,
    fonts.map((font) => font.fontGNo),
  );
  const answer = new Map<string, FaceSamples>();
  await Promise.all(
    fonts.map(async ({ fontGNo: gno, script: dictNumber }) => {
      const script = scriptLabelOf(dictNumber);
      const face = faces.get(gno)?.face;
      if (!face) return;
      const key = `${face.sha256}:${scriptKey(script)}`;
      let samples = chosen.get(key);
      if (!samples) {
        samples = chooseSamples(script, new Set(await fontCodePoints(face)));
        if (chosen.size >= MAX_CHOSEN) chosen.delete(chosen.keys().next().value as string);
        chosen.set(key, samples);
      }
      answer.set(gno, samples);
    }),
  );
  return answer;
}
