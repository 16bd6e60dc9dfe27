import { coverageSets, jisKanji } from '../../engine/charsets.ts';
import { type SampleScript, sampleScript } from '../../engine/identify/matcher.ts';
import { writesHongKongForms } from '../../engine/identify/variants.ts';

// Library faces chosen by script. The faces that judge which form of a character a picture shows
// (engine/identify/variants.ts): the regular weight of the Sans and Serif faces of each script,
// whose forms follow their script's standard (Simplified, Traditional, Hong Kong, Japanese), in two
// styles, so that a Ming picture and a Gothic one each find a drawing close to their own. And the
// face that leads faces drawing a sample alike.
export const FORM_JUDGE_FAMILIES: readonly string[] = [
  'noto-sans-sc',
  'noto-sans-tc',
  'noto-sans-hk',
  'noto-sans-jp',
  'noto-serif-sc',
  'noto-serif-tc',
  'noto-serif-jp',
];

/** The judging faces among the library's: the regular weight (400) of each judging family. */
export function formJudges<T extends { familyGno: string; weight: number }>(faces: readonly T[]): T[] {
  return faces.filter((face) => face.weight === 400 && FORM_JUDGE_FAMILIES.includes(face.familyGno));
}

/**
 * Faces that draw a sample alike (the same outlines: 思源黑体 SC, TC, HK and JP share most of them)
 * led by a face of the sample's script (`script` as the faces spell it), and for a Traditional sample
 * by the region whose forms it shows: a Hong Kong face when it holds a Hong Kong form, else a Taiwan
 * one (a face's region is its family's: `-hk`). A stable sort: faces of equal standing keep their order.
 */
export function leadBySample<T extends { familyGno: string; script: string }>(
  members: readonly T[],
  script: string,
  traditional: { hongKong: boolean } | null,
): T[] {
  const standing = (face: T) =>
    (face.script === script ? 2 : 0) + (traditional && face.familyGno.endsWith('-hk') === traditional.hongKong ? 1 : 0);
  return [...members].sort((a, b) => standing(b) - standing(a));
}

/**
 * The script a sample is written in, and for a Traditional one whether it shows Hong Kong forms. A
 * Hong Kong form (衞, 綫) is in neither GB 2312 nor Big5 and often in JIS X 0208, so it decides first,
 * before the character sets vote (matcher.ts).
 */
export function judgeSample(characters: readonly string[]): {
  script: SampleScript;
  traditional: { hongKong: boolean } | null;
} {
  if (writesHongKongForms(characters)) return { script: '繁体', traditional: { hongKong: true } };
  const script = sampleScript(characters, { ...coverageSets(), jis: jisKanji() });
  return { script, traditional: script === '繁体' ? { hongKong: false } : null };
}
