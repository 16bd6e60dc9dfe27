import type { GlyphInk } from './features.ts';
import { type QueryGlyph, type ReferenceLookup, rankFaces } from './matcher.ts';
import type { Suggestion } from './ocr.ts';
import { type GlyphCrop, likenessTo } from './rerank.ts';
import { otherForms } from './variants.ts';

// The readings checked again in the face the picture is set in. The first readings are weighed in
// the judging faces (variants.ts), which only share the picture's script: two characters a stroke
// apart (已 and 己, 士 and 土, 曰 and 日) or two forms of one (戯 and 戱, 寛 and 寬) differ there by less
// than any Noto face differs from a brush, rounded or heavy picture. Once the readings are known,
// the library face whose references (the index's descriptors, a lookup each) are most like the
// glyphs is known too, and in the picture's own face, or a face close to it, the right character is
// drawn almost exactly as the picture shows it: the characters the first pass weighed for each
// glyph are drawn there once more and the one drawn clearly most like the glyph is taken. A face
// the library lacks leads nothing with certainty: the bars below ask for the drawing to be much
// more alike than the reading's, and as alike as the face draws the picture's other glyphs.

/**
 * How much of the reading's mismatch (1 − likeness) a character drawn in the leading face may keep
 * and replace it. A share, not a fixed margin: the mismatch left by blur, JPEG and a renderer's
 * antialiasing grows as the picture worsens, and a fixed margin is either too small for a blurred
 * picture (any dense character scores a few hundredths above the reading there) or too large for a
 * sharp one (戯 and 戱, drawn in the picture's face, differ by a hundredth and a half).
 */
export const RESIDUAL_KEPT = 0.8;
/**
 * How far below the face's likeness to the picture's other glyphs (the median of their readings')
 * a character's likeness may fall and still replace a reading: a face that draws the rest of the
 * sample as the picture shows it draws the right character as alike. A character far below that is
 * no more the glyph than the reading, only a denser or lighter shape that blur favours, or the face
 * is not the picture's.
 */
export const BELOW_OTHERS = 0.12;
/**
 * When the leading face lacks the reading (a Japanese face has no 戱 or 淚, only 戯 and 涙), the
 * reading cannot be the picture's character if the face is the picture's; another character takes
 * its place when drawn at most this far below the face's likeness to the other glyphs.
 */
export const LACKED_BELOW_OTHERS = 0.05;

/**
 * The face, of `faceIds`, whose references are most like the glyphs (the first of the matcher's
 * first candidate), or null when none draws any of them.
 */
export function leadingFace(glyphs: QueryGlyph[], faceIds: string[], lookup: ReferenceLookup): string | null {
  if (glyphs.length === 0) return null;
  return rankFaces(glyphs, faceIds, lookup)[0]?.faceIds[0] ?? null;
}

/** A glyph's suggestions after the first pass, with its crop and what the first pass weighed. */
export interface WeighedReading {
  suggestions: readonly Suggestion[];
  crop: GlyphCrop | null;
  /** Characters the search by shape found for the glyph and the first pass weighed (form-shapes.ts). */
  found?: readonly string[];
}

/** The median of some numbers, or null for none. */
function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * Each glyph's suggestions with the character the leading face draws most like the glyph first,
 * when it is drawn clearly more alike than the reading (RESIDUAL_KEPT) and about as alike as the
 * face draws the other glyphs (BELOW_OTHERS; LACKED_BELOW_OTHERS when the face lacks the reading).
 * The characters weighed are those the first pass weighed: the glyph's suggestions, their other
 * forms and the characters found by shape; the reading follows the one taken.
 */
export function preferLeadingFace(
  readings: readonly WeighedReading[],
  draw: (character: string) => GlyphInk | null,
): Suggestion[][] {
  // Each glyph's likeness to the drawings, the softening chosen on the reading's (rerank.ts).
  const likeness = readings.map((reading) => (reading.crop ? likenessTo(reading.crop) : null));
  const scoreOf = (i: number, character: string) => {
    const measure = likeness[i];
    const drawing = measure ? draw(character) : null;
    return measure && drawing ? measure(drawing) : null;
  };
  const readingScores = readings.map((reading, i) => {
    const first = reading.suggestions[0];
    return first ? scoreOf(i, first.character) : null;
  });
  return readings.map((reading, i) => {
    const first = reading.suggestions[0];
    if (!first || !likeness[i]) return [...reading.suggestions];
    const others = median(readingScores.filter((score, k): score is number => k !== i && score !== null));
    const own = readingScores[i] ?? null;
    const bar = own !== null ? 1 - RESIDUAL_KEPT * (1 - own) : others !== null ? others - LACKED_BELOW_OTHERS : null;
    if (bar === null) return [...reading.suggestions];
    const weighed = new Set<string>();
    for (const suggestion of reading.suggestions) {
      weighed.add(suggestion.character);
      for (const form of otherForms(suggestion.character)) weighed.add(form);
    }
    for (const character of reading.found ?? []) weighed.add(character);
    weighed.delete(first.character);
    let chosen: { character: string; score: number } | undefined;
    for (const character of weighed) {
      const score = scoreOf(i, character);
      if (score === null || score <= bar || (others !== null && score < others - BELOW_OTHERS)) continue;
      if (!chosen || score > chosen.score) chosen = { character, score };
    }
    if (!chosen) return [...reading.suggestions];
    const character = chosen.character;
    return [
      { character, confidence: first.confidence },
      ...reading.suggestions.filter((suggestion) => suggestion.character !== character),
    ];
  });
}
