// Shapes of the font library's answers, shared by the server (src/server/fonts) and the browser
// client (src/api/fonts.ts, src/api/favorites.ts, src/api/user-data.ts).

/** Coverage counts of a font: how many characters of each set it has. */
export interface FontCoverage {
  gb2312: number;
  tongyong: number;
  big5: number;
  latin: number;
}

/** One weight/style of a family (SPEC §3 childFontResource). */
export interface ChildFontResource {
  /** The child font's own id, by which the tools name a library font. */
  id: number;
  fontGNo: string;
  familyName: string;
  fontFamily: string;
  ttfPath: string;
  /** Whole-font WOFF2 is not generated yet. */
  woffPath: string | null;
  webFontFamily: string;
  weight: number;
  italic: boolean;
  styleName: string;
  fileSize: number;
}

/** A font family as the font list shows it (SPEC §3 font resource item). */
export interface FontResource {
  fontGNo: string;
  /** The Chinese display name. */
  familyName: string;
  /** The English family name read from the font. */
  fontFamily: string;
  /** The TTF of the face that stands for the family (weight 400 or the nearest). */
  ttfPath: string | null;
  woffPath: string | null;
  /** The CSS family name pages use to preview the font. */
  webFontFamily: string;
  childFontResource: ChildFontResource[];
  category: string;
  script: string;
  license: string;
  commercialFree: boolean;
  glyphCount: number;
  coverage: FontCoverage;
  designer: string | null;
  foundry: string | null;
  downloads: number;
  /** When the family joined the library (ISO-8601). */
  createdAt: string;
}

/** A family inside a favourite group (SPEC §3: entries carry fontGNo). */
export interface FavoriteFontEntry {
  fontGNo: string;
  familyName: string;
  /** When it was added (ISO-8601). */
  createdAt: string;
}

/** A favourite font group; the star button's plain favourites are the group with id 0. */
export interface FavoriteFontGroup {
  id: number;
  name: string;
  fontList: FavoriteFontEntry[];
}

/** A family of a favourite group as the favourites page shows it: its resource item and the line it is drawn in. */
export interface FavoriteFontResource extends FontResource {
  /** The face's default line, of its own script and in characters it has (the library rows' line). */
  sample: string;
}

/** A group with the full resource items of its families, for the favourites page. */
export interface FavoriteGroupDetail {
  id: number;
  name: string;
  createdAt: string;
  fontList: FavoriteFontResource[];
}

/** One row of the download history. */
export interface DownloadRecord {
  id: number;
  fontGNo: string;
  familyName: string;
  /** The child font downloaded, or null for the whole family (zip). */
  childFontGNo: string | null;
  styleName: string | null;
  createdAt: string;
}

/** The formats a download comes in: a weight as shipped (TTF) or as WOFF2, a family as a ZIP. */
export type DownloadFormat = 'ttf' | 'woff2' | 'zip';

/** The answer of get-download-url. */
export interface DownloadLink {
  format: DownloadFormat;
  /**
   * True while a weight's WOFF2 is still being made (the first ask starts it; about half a minute
   * for a CJK face): `url` is empty, ask again in a few seconds.
   */
  preparing: boolean;
  /** Path of the signed link, relative to the site. */
  url: string;
  /** When the link stops working (ISO-8601). */
  expiresAt: string;
  /** The name the file is saved under. */
  fileName: string;
  /** Bytes of the file: the TTF, the WOFF2 (0 while it is made) or the whole ZIP. */
  size: number;
}

/** One character of a face, zoomed: whether the face has it, and its outline and metrics (GET /font/glyph). */
export interface GlyphDetail {
  char: string;
  codePoint: number;
  /** 'U+6C38'. */
  unicode: string;
  /** The face that was read (a family's gno stands for its regular face). */
  fontGNo: string;
  /** False when the face lacks the character; then only the fields above are filled. */
  has: boolean;
  /** Font units per em, and the face's ascender and descender in those units (OS/2 typo, else hhea). */
  unitsPerEm?: number;
  ascender?: number;
  descender?: number;
  advanceWidth?: number;
  /** The vertical advance (vmtx), when the face has vertical metrics. */
  advanceHeight?: number;
  leftSideBearing?: number;
  /** The outline's bounding box, in font units, y up. */
  bbox?: { xMin: number; yMin: number; xMax: number; yMax: number };
  /** The outline as SVG path data, in font units, y up. */
  path?: string;
  /** Whether the face has a separate vertical form of it (applied by `vert` in vertical text). */
  verticalForm?: boolean;
}

/** Style categories of the font library, in the order filters show them (dict numbers are 1-based positions). */
export const FONT_CATEGORIES = ['黑体', '宋体', '楷体', '圆体', '仿宋', '手写', '书法', '艺术', '像素'] as const;
/** The writing systems a family is made for. */
export const FONT_SCRIPTS = ['简体', '繁体', '日文'] as const;

/** The script label ('简体', '繁体', '日文') of a family's script dict number ('1' is 简体). */
export function scriptLabelOf(dictNumber: string): string {
  return FONT_SCRIPTS[Number(dictNumber) - 1] ?? '简体';
}

/** The body of POST /web/api/font/coverage: the text whose characters the fonts must have. */
export interface FontCoverageRequest {
  /** Its distinct code points, whitespace left out, are checked: 1 to 5,000 of them. */
  text: string;
}

/** How well one family covers the checked characters: the figures of its best face. */
export interface FontCoverageFamily {
  fontGNo: string;
  /** How many of the checked characters the family's best face lacks (0: it has them all). */
  lacks: number;
  /** The first (at most 20) characters it lacks, in the order of the text. */
  missing: string;
}

/** The answer of POST /web/api/font/coverage: every published family, fewest lacking first. */
export interface FontCoverageAnswer {
  /** How many distinct characters were checked. */
  checked: number;
  families: FontCoverageFamily[];
}

/** The most distinct characters one coverage question may check. */
export const COVERAGE_MAX_CHARACTERS = 5000;
