import { serverSource } from '../../paths.ts';
import { readFontDataFile } from '../data-files.ts';
import type { GlyphInk } from './features.ts';
import type { SampleScript } from './matcher.ts';
import type { Suggestion } from './ocr.ts';
import { type GlyphCrop, likenessTo } from './rerank.ts';

// The reader's model learnt mostly Simplified text: its 6 623 characters lack many Traditional and
// Japanese forms (階, 発, 図, 駅, 読), so a picture of them is read as the Simplified form or as
// whatever looks closest (階 as 隋). Each reading's other forms (OpenCC's tables: Simplified,
// Traditional, Hong Kong and Japanese) are drawn in a few faces of every script and laid on the
// picture's glyph as the second look lays a candidate's drawing (rerank.ts); a form that the
// picture matches clearly better than the first reading takes its place, the reading kept as the
// next suggestion. The forms differ by whole components (归, 歸, 帰), far more than two faces differ,
// so any face of the script judges them.

/** A character found by the glyph's shape (form-shapes.ts), with its descriptor similarity (at most 1). */
export interface ShapeMatch {
  character: string;
  similarity: number;
}

/** Draws a character in one of the judging faces, or null when the face lacks it. */
export type FormDrawer = (faceId: string, character: string) => GlyphInk | null;

/** How much better (in likeness, at most 1) another form must match the glyph to replace the reading. */
export const FORM_MARGIN = 0.03;
/** How many judging faces, those nearest the picture's style, draw the other forms. */
const JUDGES_KEPT = 2;
/** How many of the reader's suggestions have their other forms weighed. */
const READINGS = 5;
/** How many characters found by shape (form-shapes.ts) are weighed, at most. */
export const SHAPES_WEIGHED = 10;
/**
 * A reading the reader is at least this sure of is searched for by shape only among the characters
 * it cannot answer, under SURE_SHAPE_FLOOR and SURE_SHAPE_MARGIN.
 */
export const SURE_READING = 0.95;
/** The least descriptor similarity of a character found by shape to be weighed. */
export const SHAPE_FLOOR = 0.35;
/**
 * For a sure reading, the least descriptor similarity of a character found by shape, and how much
 * more alike (likeness, at most 1) its drawing must be than the reading's to replace it. The reader
 * is sure of a wrong reading mostly when the glyph is a form it cannot answer (階 read as 隋 at 0.96,
 * 売 as 壳, 発 as 凳), so only such forms are searched; the bars are higher than for an unsure reading
 * because a sure reading is mostly right, and a brush glyph far from every judging face lets a
 * dense form outscore it (沟 lost to 瑲, 猛 to 錳 at the unsure reading's bars).
 */
export const SURE_SHAPE_FLOOR = 0.5;
export const SURE_SHAPE_MARGIN = 0.08;

/**
 * The characters found by shape that are weighed against a reading: those whose descriptor is near
 * enough the glyph's (SHAPE_FLOOR, or SURE_SHAPE_FLOOR for a reading the reader is sure of).
 */
export function shapesWeighed(matches: readonly ShapeMatch[], sure: boolean): string[] {
  const floor = sure ? SURE_SHAPE_FLOOR : SHAPE_FLOOR;
  return matches.filter((match) => match.similarity >= floor).map((match) => match.character);
}

/** The best likeness to the glyph of a character drawn in any of the faces; −∞ when none draws it. */
function bestLikeness(
  character: string,
  faces: readonly string[],
  draw: FormDrawer,
  likeness: (drawing: GlyphInk) => number,
): number {
  let best = Number.NEGATIVE_INFINITY;
  for (const face of faces) {
    const drawing = draw(face, character);
    if (drawing) best = Math.max(best, likeness(drawing));
  }
  return best;
}

/**
 * Each character's other forms, from OpenCC's tables (`npm run identify:forms` writes the file from
 * opencc-js): the converters themselves hold about 110 MB of tries for the life of the worker, and
 * identification only ever converts one character at a time.
 */
export const VARIANT_FORMS_FILE = serverSource('engine', 'data', 'variant-forms.txt');

let formsByCharacter: Map<string, readonly string[]> | undefined;
let hongKongOnly: ReadonlySet<string> | undefined;

/** variant-forms.txt's lines: the characters with their forms, then `hk:` and the Hong Kong forms. */
const variantLines = () => readFontDataFile('variant-forms.txt').split('\n');

/** Each character's other forms, read once (in the identification worker). */
function formsTable(): Map<string, readonly string[]> {
  if (!formsByCharacter) {
    formsByCharacter = new Map();
    for (const line of variantLines()) {
      if (line === 'hk:') break;
      if (!line || line.startsWith('#')) continue;
      const [character, ...others] = line;
      if (character) formsByCharacter.set(character, others);
    }
  }
  return formsByCharacter;
}

/** The forms only Hong Kong writes, read once without the rest (the server's own thread judges samples). */
function hongKongForms(): ReadonlySet<string> {
  if (!hongKongOnly) {
    const lines = variantLines();
    hongKongOnly = new Set(lines[lines.indexOf('hk:') + 1] ?? '');
  }
  return hongKongOnly;
}

/** The other forms of a character in the other scripts (帰 and 歸 for 归), the character left out. */
export function otherForms(character: string): string[] {
  return [...(formsTable().get(character) ?? [])];
}

/**
 * The suggestions with the form the glyph shows first: the first reading, the other forms of the
 * first READINGS readings, the readings that have such forms and (from `nearestShapes`, the
 * characters nearest the glyph's shape) the few found by shape are each drawn in
 * the judging faces, each scored by its best likeness to the glyph; a form scoring FORM_MARGIN above
 * the first reading leads, the reading after it.
 */
export function preferDrawnForm(
  suggestions: readonly Suggestion[],
  crop: GlyphCrop,
  faceIds: readonly string[],
  draw: FormDrawer,
  nearestShapes?: (count: number, sure?: string) => ShapeMatch[],
): Suggestion[] {
  const first = suggestions[0];
  if (!first || faceIds.length === 0) return [...suggestions];
  // The forms of the readings, and the readings that have other forms (國 read third after 圜 and
  // 圆): a reading with no form in another script is a guess between shapes the reader judged.
  const forms = new Set<string>();
  for (const suggestion of suggestions.slice(0, READINGS)) {
    const others = otherForms(suggestion.character);
    if (others.length) forms.add(suggestion.character);
    for (const form of others) forms.add(form);
  }
  // Characters found by the glyph's shape (form-shapes.ts): the glyph of 駅, read as 默, finds 駅
  // among them. Only those whose descriptor is near enough: a brush glyph is far from every judging
  // face's drawing, and a dense form drawn in a light face can then outscore the reading's own
  // drawing. For a sure reading only the forms the reader cannot answer whose shape is nearer the
  // glyph than the reading's own (FormShapes.nearest), under higher bars.
  const sure = first.confidence >= SURE_READING;
  const foundWhenSure = new Set<string>();
  if (nearestShapes) {
    for (const character of shapesWeighed(nearestShapes(SHAPES_WEIGHED, sure ? first.character : undefined), sure)) {
      if (forms.has(character)) continue;
      forms.add(character);
      if (sure) foundWhenSure.add(character);
    }
  }
  forms.delete(first.character);
  if (forms.size === 0) return [...suggestions];
  const likeness = likenessTo(crop);
  const scoreIn = (character: string, faces: readonly string[]) => bestLikeness(character, faces, draw, likeness);
  // The first reading in every judging face; the forms only in the JUDGES_KEPT faces that drew it
  // most alike, the faces whose style is nearest the picture's (a third of the drawing, and a lean,
  // if any, towards the reading).
  const byFace = faceIds.map((face) => ({ face, score: scoreIn(first.character, [face]) }));
  byFace.sort((a, b) => b.score - a.score);
  const reading = byFace[0]?.score ?? Number.NEGATIVE_INFINITY;
  // No judging face draws the reading: nothing to weigh it against.
  if (reading === Number.NEGATIVE_INFINITY) return [...suggestions];
  // A form is drawn in the nearest faces that have it: a Simplified face may lack a Japanese form
  // (乗), which the next faces in style then judge, rather than the form going unweighed.
  const scoreNearest = (character: string) => {
    let best = Number.NEGATIVE_INFINITY;
    let drawn = 0;
    for (const { face } of byFace) {
      const drawing = draw(face, character);
      if (!drawing) continue;
      best = Math.max(best, likeness(drawing));
      if (++drawn === JUDGES_KEPT) break;
    }
    return best;
  };
  let chosen: { character: string; score: number } | undefined;
  for (const form of forms) {
    const score = scoreNearest(form);
    const margin = foundWhenSure.has(form) ? SURE_SHAPE_MARGIN : FORM_MARGIN;
    if (score > reading + margin && score > (chosen?.score ?? Number.NEGATIVE_INFINITY))
      chosen = { character: form, score };
  }
  if (!chosen) return [...suggestions];
  const character = chosen.character;
  return [
    { character, confidence: first.confidence },
    ...suggestions.filter((suggestion) => suggestion.character !== character),
  ];
}

/**
 * Whether a sample is written in Hong Kong forms: one of its characters is a form Hong Kong's
 * standard writes and Taiwan's does not (裏, 衞, 綫, 着). Most Traditional characters are the same in
 * both, and 思源 TC and HK draw them alike: the Taiwan face leads those, the HK one these.
 */
export function writesHongKongForms(characters: readonly string[]): boolean {
  const hongKong = hongKongForms();
  return characters.some((character) => hongKong.has(character));
}

/** The character sets that tell the scripts apart (engine/charsets.ts): GB 2312, Big5 and JIS X 0208. */
export interface ScriptSets {
  gb2312: ReadonlySet<number>;
  big5: ReadonlySet<number>;
  jis: ReadonlySet<number>;
}

/**
 * How well a character fits a script: 2 when that script's set alone of the three holds it (热 for
 * Simplified, 熱 is in Big5 and JIS; 穏 for Japanese), 1 when another set holds it too, 0 when the
 * script's set lacks it.
 */
export function scriptFit(character: string, script: SampleScript, sets: ScriptSets): number {
  const cp = character.codePointAt(0) ?? 0;
  const held = { 简体: sets.gb2312.has(cp), 繁体: sets.big5.has(cp), 日文: sets.jis.has(cp) };
  if (!held[script]) return 0;
  return Object.values(held).filter(Boolean).length === 1 ? 2 : 1;
}

/**
 * The scripts whose character sets hold the most of the characters (kana count for Japanese), or
 * none when all three hold as many. Japanese text is mostly in Big5 as well as JIS (葉, 話, 階: a
 * vote of the characters one set alone holds, as sampleScript takes, calls it Traditional), and so
 * is Traditional text (學, 國): such a sample shows Traditional and Japanese, each as likely, and
 * only a form both write (業 for 业) is theirs.
 */
export function scriptsHolding(characters: readonly string[], sets: ScriptSets): SampleScript[] {
  const held: Record<SampleScript, number> = { 简体: 0, 繁体: 0, 日文: 0 };
  for (const character of characters) {
    const cp = character.codePointAt(0) ?? 0;
    if (cp >= 0x3040 && cp <= 0x30ff) held.日文++;
    if (sets.gb2312.has(cp)) held.简体++;
    if (sets.big5.has(cp)) held.繁体++;
    if (sets.jis.has(cp)) held.日文++;
  }
  const most = Math.max(...Object.values(held));
  const scripts = (Object.keys(held) as SampleScript[]).filter((script) => held[script] === most);
  return most > 0 && scripts.length < 3 ? scripts : [];
}

/**
 * How much less like the glyph (likeness, at most 1) a form of the sample's script may be than the
 * reading and still take its place. A form wins on its drawing alone only FORM_MARGIN clear
 * (preferDrawnForm); a brush or rounded glyph is far from every judging face, so 热 and 熱 drawn in
 * them can differ by more than that in either direction whichever the picture shows.
 */
export const SCRIPT_FORM_MARGIN = 0.05;

/**
 * Each glyph's reading turned into its form of the script the other glyphs show (scriptsHolding on
 * their first readings): a brush 紧 whose drawing leans to 緊 among Simplified characters is 紧, a
 * 侧 among Traditional or Japanese ones is 側 (both write it so). A form fitting better in each of
 * the scripts shown (scriptFit) replaces the reading when its best likeness to the glyph in the
 * judging faces is at most SCRIPT_FORM_MARGIN below the reading's; the reading follows it. A glyph
 * among others written alike in every script, or whose reading has no such form, keeps its
 * suggestions.
 */
export function preferSampleScript(
  readings: readonly { suggestions: readonly Suggestion[]; crop: GlyphCrop | null }[],
  faceIds: readonly string[],
  draw: FormDrawer,
  sets: ScriptSets,
): Suggestion[][] {
  const firsts = readings.map((reading) => reading.suggestions[0]?.character ?? '');
  return readings.map(({ suggestions, crop }, i) => {
    const first = suggestions[0];
    if (!first || !crop || faceIds.length === 0) return [...suggestions];
    const scripts = scriptsHolding(
      firsts.filter((character, k) => k !== i && character),
      sets,
    );
    if (scripts.length === 0) return [...suggestions];
    // A form fits better only if it does in each script the sample may be in.
    const fits = (form: string) =>
      scripts.every((script) => scriptFit(form, script, sets) > scriptFit(first.character, script, sets));
    const fitInAll = (character: string) =>
      scripts.reduce((sum, script) => sum + scriptFit(character, script, sets), 0);
    const better = otherForms(first.character).filter(fits);
    if (better.length === 0) return [...suggestions];
    const likeness = likenessTo(crop);
    const scoreOf = (character: string) => bestLikeness(character, faceIds, draw, likeness);
    // The reading is drawn first: the softening the likeness picks is chosen on it (rerank.ts).
    const reading = scoreOf(first.character);
    if (reading === Number.NEGATIVE_INFINITY) return [...suggestions];
    let chosen: { character: string; fit: number; score: number } | undefined;
    for (const form of better) {
      const score = scoreOf(form);
      if (score < reading - SCRIPT_FORM_MARGIN) continue;
      const candidate = { character: form, fit: fitInAll(form), score };
      if (!chosen || candidate.fit > chosen.fit || (candidate.fit === chosen.fit && score > chosen.score))
        chosen = candidate;
    }
    if (!chosen) return [...suggestions];
    const character = chosen.character;
    return [
      { character, confidence: first.confidence },
      ...suggestions.filter((suggestion) => suggestion.character !== character),
    ];
  });
}
