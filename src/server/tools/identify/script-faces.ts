import { coverageSets, jisKanji } from '../../engine/charsets.ts';
import { type SampleScript, sampleScript, scriptShown } from '../../engine/identify/matcher.ts';
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

/** A Traditional sample's region: whether it shows Hong Kong forms (null: not a Traditional sample). */
type Region = { hongKong: boolean } | null;

/**
 * How well a face suits a sample: 2 for a face of the sample's script (`script` as the faces spell
 * it), and for a Traditional sample 1 more for a face of the region whose forms it shows: a Hong
 * Kong face (its family's `-hk`) when it holds a Hong Kong form, else a Taiwan one.
 */
export function sampleStanding(
  face: { familyGno: string; script: string },
  script: string,
  traditional: Region,
): number {
  return (
    (face.script === script ? 2 : 0) + (traditional && face.familyGno.endsWith('-hk') === traditional.hongKong ? 1 : 0)
  );
}

/**
 * Faces that draw a sample alike (the same outlines: 思源黑体 SC, TC, HK and JP share most of them)
 * led by a face of the sample's script, and for a Traditional sample by the region whose forms it
 * shows (sampleStanding). A stable sort: faces of equal standing keep their order.
 */
export function leadBySample<T extends { familyGno: string; script: string }>(
  members: readonly T[],
  script: string,
  traditional: Region,
): T[] {
  return [...members].sort((a, b) => sampleStanding(b, script, traditional) - sampleStanding(a, script, traditional));
}

/**
 * How close two candidates' scores (0–1) must be for the sample's script to decide which leads. Faces
 * drawn from one design for different scripts (思源宋体 SC and TC, which differ in a stroke here and
 * there) score within a few thousandths of each other on a picture of either's characters: the blur,
 * the JPEG and a pixel of placement decide that order, not the face.
 */
export const SCRIPT_DECIDES_WITHIN = 0.002;

/**
 * The candidates with the first place given to the best-suited one (`standing`: its leading face's
 * sampleStanding for the script the sample shows) among those scoring within SCRIPT_DECIDES_WITHIN of
 * the best: a picture of Simplified characters is most likely set in a Simplified face. The rest
 * keep their order.
 */
export function leadTiesBySample<T extends { score: number }>(
  candidates: readonly T[],
  standing: (candidate: T) => number,
): T[] {
  const top = candidates[0];
  if (!top) return [];
  let lead = 0;
  let best = standing(top);
  for (let i = 1; i < candidates.length; i++) {
    const candidate = candidates[i] as T;
    if (candidate.score < top.score - SCRIPT_DECIDES_WITHIN) break;
    const value = standing(candidate);
    if (value > best) {
      best = value;
      lead = i;
    }
  }
  if (lead === 0) return [...candidates];
  return [candidates[lead] as T, ...candidates.filter((_, i) => i !== lead)];
}

/**
 * The script a sample is written in, and for a Traditional one whether it shows Hong Kong forms. A
 * Hong Kong form (衞, 綫) is in neither GB 2312 nor Big5 and often in JIS X 0208, so it decides first,
 * before the character sets vote (matcher.ts). `shown`: the script some of its characters vote for
 * (scriptShown), or null when every character is written alike in the scripts, which is what may put
 * one candidate before another (leadTiesBySample); `script` orders faces drawing the sample alike anyway.
 */
export function judgeSample(characters: readonly string[]): {
  script: SampleScript;
  traditional: { hongKong: boolean } | null;
  shown: SampleScript | null;
} {
  const sets = { ...coverageSets(), jis: jisKanji() };
  if (writesHongKongForms(characters)) return { script: '繁体', traditional: { hongKong: true }, shown: '繁体' };
  const script = sampleScript(characters, sets);
  return {
    script,
    traditional: script === '繁体' ? { hongKong: false } : null,
    shown: scriptShown(characters, sets),
  };
}
