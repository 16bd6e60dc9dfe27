import { glyphSimilarity } from './features.ts';

// Ranking library faces for a picture's glyphs. Each face gets the mean similarity of its
// references to the glyphs; faces that draw the sample identically or all but identically
// (思源黑体 SC, HK and TC share most glyphs) are one candidate with several members, so none of
// them counts as a miss.

/** A glyph of the picture: the confirmed character and the descriptor of its crop. */
export interface QueryGlyph {
  character: string;
  descriptor: Float32Array;
}

/** The reference descriptor of a character in a face: null when the face lacks it. */
export type ReferenceLookup = (faceId: string, character: string) => Float32Array | null;

/** One candidate: faces that draw the sample alike, the best first, with the score they share. */
export interface RankedCandidate {
  faceIds: string[];
  /** Mean similarity over the glyphs, at most 1. */
  score: number;
  /** How many of the glyphs the faces have. */
  covered: number;
  /** The likeness of the faces' drawings to the picture's glyphs, for the candidates looked at again (rerank.ts). */
  drawn?: number;
}

/**
 * References at least this alike are one drawing to the matcher (identical outlines give exactly
 * 1; the regional forms of 思源 faces that differ in a hook or a dot give 0.98–0.99, below what a
 * photographed glyph can tell apart, so ranking them apart would only be noise).
 */
const ALIKE = 0.985;

/**
 * Below these best scores no face of the library draws the picture's glyphs as they are: the answer
 * says the library has no such font and offers the closest. The score compared is the final one, most
 * of it the likeness of the best candidates' own drawings to the picture (rerank.ts): a face the
 * library lacks that resembles 思源黑体 or 思源宋体 (WenQuanYi, AR PL UMing) keeps the descriptor's
 * score of those faces but not the likeness of their drawings. Small glyphs keep less of their
 * drawing (blur and JPEG take a larger share of each stroke), so even the right face scores lower and
 * the bar is lower. Calibrated on tests/bench/identify.ts between the scores of library pictures (at
 * most 2 % of standard ones and 5 % of harder ones said to be absent) and of pictures drawn in faces
 * the library lacks, by the glyphs' median height in pixels.
 */
export const NOT_IN_LIBRARY_BELOW: readonly { upTo: number; below: number }[] = [
  { upTo: 30, below: 0.88 },
  { upTo: 80, below: 0.92 },
  { upTo: Number.POSITIVE_INFINITY, below: 0.93 },
];

/** The best score under which glyphs of this median height (pixels) are taken for a face the library lacks. */
export function notInLibraryBelow(glyphHeight: number): number {
  return (NOT_IN_LIBRARY_BELOW.find((step) => glyphHeight <= step.upTo) ?? { below: 0 }).below;
}

/** The median height of boxes, in pixels. */
export function medianHeight(boxes: readonly { height: number }[]): number {
  const heights = boxes.map((box) => box.height).sort((a, b) => a - b);
  return heights[heights.length >> 1] ?? 0;
}

/** What a glyph the face lacks counts as: well below any drawn glyph, so coverage matters. */
const MISSING = -0.5;

/** Whether two faces draw every sample character alike (each pair of references at least ALIKE). */
function drawsAlike(a: (Float32Array | null)[], b: (Float32Array | null)[]): boolean {
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (!x || !y) {
      if (x !== y) return false;
      continue;
    }
    if (glyphSimilarity(x, y) < ALIKE) return false;
  }
  return true;
}

/** Ranks faces for the glyphs, best first; faces that lack every character are left out. */
export function rankFaces(glyphs: QueryGlyph[], faceIds: string[], lookup: ReferenceLookup): RankedCandidate[] {
  const scored = faceIds.map((faceId) => {
    const references = glyphs.map((glyph) => lookup(faceId, glyph.character));
    let total = 0;
    let covered = 0;
    glyphs.forEach((glyph, i) => {
      const reference = references[i];
      if (!reference) {
        total += MISSING;
        return;
      }
      covered++;
      total += glyphSimilarity(glyph.descriptor, reference);
    });
    return { faceId, references, score: glyphs.length ? total / glyphs.length : 0, covered };
  });
  scored.sort((a, b) => b.score - a.score);
  const candidates: (RankedCandidate & { references: (Float32Array | null)[] })[] = [];
  for (const face of scored) {
    if (face.covered === 0) continue;
    const twin = candidates.find((candidate) => drawsAlike(candidate.references, face.references));
    if (twin) twin.faceIds.push(face.faceId);
    else
      candidates.push({
        faceIds: [face.faceId],
        score: face.score,
        covered: face.covered,
        references: face.references,
      });
  }
  return candidates.map(({ faceIds, score, covered }) => ({ faceIds, score, covered }));
}

/** The script a sample is written in, judged from its characters: what the faces drawing it alike are ordered by. */
export type SampleScript = '简体' | '繁体' | '日文';

/** How many of a sample's characters one script's set alone holds (kana: Japanese outright). */
function scriptVotes(
  characters: readonly string[],
  sets: { gb2312: ReadonlySet<number>; big5: ReadonlySet<number>; jis?: ReadonlySet<number> },
): { kana: boolean; simplified: number; traditional: number; japanese: number } {
  let simplified = 0;
  let traditional = 0;
  let japanese = 0;
  for (const character of characters) {
    const cp = character.codePointAt(0) ?? 0;
    if (cp >= 0x3040 && cp <= 0x30ff) return { kana: true, simplified, traditional, japanese };
    const gb = sets.gb2312.has(cp);
    const big5 = sets.big5.has(cp);
    if (gb && !big5) simplified++;
    else if (big5 && !gb) traditional++;
    else if (!gb && !big5 && sets.jis?.has(cp)) japanese++;
  }
  return { kana: false, simplified, traditional, japanese };
}

/**
 * The script of a sample, judged character by character: Japanese when it holds kana; else each
 * character that one script alone writes so votes for it (GB 2312 alone: Simplified, 这; Big5 alone:
 * Traditional, 這; JIS X 0208 alone: a Japanese form, 帰, 駅, 図, which neither of the others holds),
 * and the script with most votes leads (Japanese on a tie with another, Simplified on a tie of the two);
 * Simplified when nothing tells them apart (characters every script shares). The sets come from the
 * caller (engine/charsets.ts); without `jis` no character votes Japanese.
 */
export function sampleScript(
  characters: readonly string[],
  sets: { gb2312: ReadonlySet<number>; big5: ReadonlySet<number>; jis?: ReadonlySet<number> },
): SampleScript {
  const { kana, simplified, traditional, japanese } = scriptVotes(characters, sets);
  if (kana) return '日文';
  if (japanese > 0 && japanese >= traditional && japanese >= simplified) return '日文';
  return traditional > simplified ? '繁体' : '简体';
}

/**
 * The script a sample shows, or null when none of its characters votes (sampleScript): 永和九年 is
 * written alike in every script, and sampleScript's Simplified for it is only the likelier guess.
 */
export function scriptShown(
  characters: readonly string[],
  sets: { gb2312: ReadonlySet<number>; big5: ReadonlySet<number>; jis?: ReadonlySet<number> },
): SampleScript | null {
  const votes = scriptVotes(characters, sets);
  if (!votes.kana && votes.simplified + votes.traditional + votes.japanese === 0) return null;
  return sampleScript(characters, sets);
}
