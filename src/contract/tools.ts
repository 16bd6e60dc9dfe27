// Shapes of the font tools' answers, shared by the server (src/server/tools) and the browser client
// (src/api/font-tools.ts).

/** Formats the server reads and writes. */
export type FontFormat = 'ttf' | 'otf' | 'ttc' | 'woff' | 'woff2' | 'eot';

/** The subset formats the subset generator writes. */
export const SUBSET_FORMATS = ['ttf', 'woff', 'woff2'] as const;
/** One subset format. */
export type SubsetFormat = (typeof SUBSET_FORMATS)[number];

/** A font kept on the server for a while (meta.json), as the upload call answers. */
export interface UploadedFont {
  fileId: string;
  /** The file name as the browser sent it. */
  name: string;
  size: number;
  format: FontFormat;
  familyName: string;
  glyphCount: number;
  /** How many faces the file holds (a TTC holds several). */
  faces: number;
  expiresAt: string;
}

/** How the pixel-font maker draws pixels. */
export const PIXEL_SHAPES = ['square', 'round', 'gapped'] as const;
/** One pixel shape: merged squares, round dots, or squares with a gap between them. */
export type PixelShape = (typeof PIXEL_SHAPES)[number];

/** The pixel-font maker's drawing options. */
export interface PixelOptions {
  /** Pixels per em, 8–48 (classic Chinese bitmap fonts: 12, 16, 24). */
  grid: number;
  /** Share of a cell the outline must cover to become ink, 0.05–0.95; lower draws bolder strokes. */
  threshold: number;
  shape: PixelShape;
}

/** One glyph on its grid: `bits` holds width × grid cells, row by row from the top, '1' for ink. */
export interface PixelEdit {
  codePoint: number;
  width: number;
  bits: string;
}

/** The preview answer (POST /tools/api/pixel/preview): the image and the glyphs it shows. */
export interface PixelPreview {
  /** A data: URL of the PNG. */
  image: string;
  width: number;
  height: number;
  glyphs: PixelEdit[];
  missing: string;
  /**
   * Set when the line comes out (almost) empty at these options (a thin face on a small grid): the
   * message, and the threshold or the grid, worked out from the glyphs, that draws its strokes.
   */
  faint?: { message: string; threshold?: number; grid?: number };
}

/** The character sets a subset or a pixel font can take whole. */
export type SubsetCharset = 'gb2312' | 'common3500' | 'big5' | 'latin';

/** What a saved pixel-font project holds (everything the tool needs to pick up where it was). */
export interface PixelProjectData {
  /** A library font (uploads expire, so a project of an upload asks for the file again). */
  source: { fontId: number } | null;
  /** The font's name as the tool showed it. */
  sourceLabel: string;
  options: PixelOptions;
  charsets: SubsetCharset[];
  text: string;
  family: string;
  weight: number;
  edits: PixelEdit[];
}

/** A saved project as lists show it. */
export interface PixelProjectSummary {
  id: number;
  name: string;
  sourceLabel: string;
  grid: number;
  editedGlyphs: number;
  updatedAt: string;
}

/** A saved project, whole. */
export interface PixelProject extends PixelProjectSummary {
  data: PixelProjectData;
}
