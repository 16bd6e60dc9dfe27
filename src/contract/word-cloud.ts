// Shapes of the word-cloud calls, shared by the server (src/server/tools/wordcloud) and the browser
// client (src/api/word-cloud.ts).

/** A word of the cloud and its weight, 0.01–1 (the strongest word weighs 1). */
export interface CloudWord {
  text: string;
  weight: number;
}

/** A template type (GET /tools/api/word-cloud/template-types). */
export interface CloudTemplateType {
  id: number;
  type: 'font_cloud';
  name: string;
  sort: number;
}

/** A shape template (GET /tools/api/word-cloud/images). */
export interface CloudTemplateImage {
  id: number;
  typeId: number;
  name: string;
  /** The SVG's address. */
  url: string;
}

/** An uploaded picture kept as a cloud's shape (POST /tools/api/word-cloud/mask). */
export interface UploadedMask {
  maskId: string;
  width: number;
  height: number;
  expiresAt: string;
}

/** Colour palettes of the tool, by name; `picture` colours each word from the shape's picture. */
export const CLOUD_PALETTES = ['vermilion', 'ink', 'celadon', 'porcelain', 'autumn', 'spring', 'neon'] as const;
export type CloudPalette = (typeof CLOUD_PALETTES)[number];

/** How words turn: all level, level and a quarter turn, or any angle between −60° and 60°. */
export const CLOUD_ORIENTATIONS = ['horizontal', 'mixed', 'free'] as const;
export type CloudOrientation = (typeof CLOUD_ORIENTATIONS)[number];

/** What the cloud is shaped by. */
export type CloudShape =
  | { kind: 'none' }
  | { kind: 'template'; id: number }
  | { kind: 'picture'; maskId: string }
  | { kind: 'character'; character: string; fontId?: number };

/** The body of POST /tools/api/word-cloud. */
export interface CloudRequest {
  text?: string;
  words?: CloudWord[];
  limit?: number;
  font: { fontId: number } | { fileId: string };
  shape?: CloudShape;
  threshold?: number;
  orientation?: CloudOrientation;
  verticalText?: boolean;
  colors?: CloudPalette | 'picture';
  /** #RRGGBB or 'transparent'. */
  background?: string;
  width?: number;
  height?: number;
  seed?: number;
  format?: 'png' | 'svg' | 'svg-outlines';
}

/** What a drawn cloud left out, from the answer's headers. */
export interface CloudReport {
  placed: number;
  /** Words that found no room. */
  dropped: string[];
  /** Words with a character the font lacks. */
  missing: string[];
}
