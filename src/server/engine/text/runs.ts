// Splits a text into runs by the faces that have its characters, so that a picture sets every
// character in a face that draws it: the first face of an ordered list that maps a character takes
// it, runs of one face stay together, and a character no face maps is left out and reported rather
// than drawn as Skia's fallback box. Whitespace and marks that modify the character before them
// (variation selectors, zero-width joiners, combining marks) stay in the run they follow.

/** What a face must tell: whether it maps a code point. */
export interface Coverage {
  has(codePoint: number): boolean;
}

/** A stretch of text set in one face, by its index in the list the text was split over. */
export interface Run {
  text: string;
  face: number;
}

/** The runs of a text and the characters no face has, each once, in order. */
export interface SplitText {
  runs: Run[];
  missing: string[];
}

const MARK = /^\p{M}$/u;
const SPACE = /^\s$/u;

/** A mark, a joiner or a variation selector: it belongs to the character before it. */
function attached(character: string): boolean {
  const codePoint = character.codePointAt(0) ?? 0;
  return (
    MARK.test(character) ||
    codePoint === 0x200c ||
    codePoint === 0x200d ||
    (codePoint >= 0xfe00 && codePoint <= 0xfe0f) ||
    (codePoint >= 0xe0100 && codePoint <= 0xe01ef)
  );
}

/** Splits a text into runs over an ordered list of faces (the first that maps a character sets it). */
export function splitRuns(text: string, faces: readonly Coverage[]): SplitText {
  const runs: Run[] = [];
  const missing: string[] = [];
  const add = (character: string, face: number) => {
    const last = runs.at(-1);
    if (last && last.face === face) last.text += character;
    else runs.push({ text: character, face });
  };
  for (const character of text) {
    const codePoint = character.codePointAt(0) ?? 0;
    const last = runs.at(-1);
    if (last && attached(character)) {
      last.text += character;
      continue;
    }
    // A space belongs to the face around it when that face has one, so a line keeps its spacing.
    if (last && SPACE.test(character) && faces[last.face]?.has(codePoint)) {
      last.text += character;
      continue;
    }
    const face = faces.findIndex((candidate) => candidate.has(codePoint));
    if (face >= 0) add(character, face);
    else if (!SPACE.test(character) && !missing.includes(character)) missing.push(character);
  }
  return { runs, missing };
}
