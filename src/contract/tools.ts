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
