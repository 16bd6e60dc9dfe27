// Shapes of the font-identification calls (/tools/api/identify), shared by the server
// (src/server/tools/identify) and the browser client (src/api/identify.ts).

/** A rectangle in pixels of the prepared picture. */
export interface GlyphBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Largest picture file accepted, in bytes. */
export const IDENTIFY_MAX_BYTES = 10 << 20;
/** Longest side a picture is kept at (SPEC §9: image cropper maximum image size 2000). */
export const IDENTIFY_MAX_SIDE = 2000;
/** Smallest crop side (SPEC §9: minimum crop 10). */
export const IDENTIFY_MIN_CROP = 10;
/** Most glyphs one picture may be cut into. */
export const IDENTIFY_MAX_FOUND = 120;
/** Most glyphs one comparison may hold. */
export const IDENTIFY_MAX_GLYPHS = 40;

/** An uploaded picture (POST /tools/api/identify/picture), kept until `expiresAt`. */
export interface UploadedPicture {
  pictureId: string;
  width: number;
  height: number;
  expiresAt: string;
}

/** The part of the picture to read and how far to turn it (degrees, clockwise). */
export interface PictureView {
  pictureId: string;
  crop?: GlyphBox;
  rotate?: number;
}

/** A character the reader suggests for a glyph, with its confidence 0–1. */
export interface CharacterSuggestion {
  character: string;
  confidence: number;
}

/** A glyph the finder cut, with the reader's suggestions (best first). */
export interface FoundGlyph {
  box: GlyphBox;
  suggestions: CharacterSuggestion[];
}

/** The glyphs of a picture (POST /tools/api/identify/glyphs, SPEC §7 workflow task 125). */
export interface FoundGlyphs {
  /** The prepared picture (cropped, turned, straightened) as a PNG data URL; boxes are in its pixels. */
  image: string;
  width: number;
  height: number;
  /** The straightening turn the finder added, degrees. */
  angle: number;
  lightText: boolean;
  lines: { box: GlyphBox; glyphs: FoundGlyph[] }[];
}

/** A glyph to compare: its box and, when the person confirmed it, its character. */
export interface GlyphToMatch {
  box: GlyphBox;
  character?: string;
}

/** A face of a candidate. */
export interface CandidateFace {
  /** fonts.id, the child font. */
  fontId: number;
  gno: string;
  styleName: string;
  weight: number;
}

/** A candidate: a family's faces that draw the sample alike, with their score (0–100). */
export interface IdentifyCandidate {
  score: number;
  /** Glyphs of the sample the faces have. */
  covered: number;
  family: {
    gno: string;
    nameZh: string;
    nameEn: string;
    license: string;
    commercialFree: boolean;
  };
  faces: CandidateFace[];
  /** Faces of other families that draw the sample the same or all but the same (思源黑体 SC, HK and TC). */
  alike: { familyGno: string; familyName: string; fontId: number; styleName: string; weight: number }[];
}

/** The answer of POST /tools/api/identify/match. */
export interface IdentifyResult {
  /** The characters compared, in order; from the person, else the reader's first suggestion. */
  glyphs: { box: GlyphBox; character: string; confirmed: boolean }[];
  sample: string;
  /**
   * False when even the best candidate draws the glyphs too differently for the same font: the
   * library has no face that matches (库中没有完全一致的字体), and the candidates are the closest.
   */
  inLibrary: boolean;
  candidates: IdentifyCandidate[];
  /** Faces in the library when the comparison ran. */
  faces: number;
  elapsedMs: number;
}
