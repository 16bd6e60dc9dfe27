// Shapes of the word-cloud calls, shared by the server (src/server/tools/wordcloud) and the browser
// client (src/api/word-cloud.ts).
import type { ChildFontResource } from './fonts.ts';

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

/**
 * What the tool opens on: the sample text cut into its 200 strongest words, drawn in the most
 * downloaded family's boldest upright face, in template 103, with the controls as they start.
 * The server draws the same picture at CLOUD_SAMPLE_URL so the page can show it before its script runs.
 */
export const CLOUD_SAMPLE = {
  text: `字体设计是一门慢手艺。一款中文字体要设计七千多个汉字，字体设计师先定下风格、字重和字怀，再从笔画写起。好的字体让阅读变得轻松：正文字体要耐看，标题字体要有个性，屏幕上的字体要清晰。思源黑体、思源宋体、站酷快乐体、霞鹜文楷都是设计师喜欢的免费商用字体，字体授权要看清楚授权范围。网页字体需要子集化，像素字体适合游戏和复古设计，书法字体保留毛笔的笔触。字体联盟希望让更多人认识字体、用好字体。`,
  limit: 200,
  templateId: 103,
  threshold: 50,
  palette: 'vermilion',
  orientation: 'mixed',
  verticalText: true,
  background: '#ffffff',
  width: 1000,
  height: 1000,
  seed: 1,
} as const satisfies {
  palette: CloudPalette;
  orientation: CloudOrientation;
} & Record<string, unknown>;

/**
 * The sample cloud the page opens on, drawn by the server and kept in memory: a WebP a quarter of the
 * PNG's bytes (it is the page's largest paint), at full size and at the width a phone shows it.
 */
export const CLOUD_SAMPLE_URL = '/tools/api/word-cloud/sample.webp';
/**
 * Widths of the sample the server answers (`?w=`); the largest is the drawing's own. 750 is for the common
 * Android phone, 412 CSS px at 1.75× (721 device px), which would otherwise fetch the largest.
 */
export const CLOUD_SAMPLE_WIDTHS = ['640', '750', '1000'] as const;
export const CLOUD_SAMPLE_SRCSET = CLOUD_SAMPLE_WIDTHS.map(
  (width) => `${CLOUD_SAMPLE_URL}${Number(width) === CLOUD_SAMPLE.width ? '' : `?w=${width}`} ${width}w`,
).join(', ');
/** The preview is the tool's whole width on a phone and at most about 560 px beside the controls. */
export const CLOUD_SAMPLE_SIZES = '(max-width: 900px) 100vw, 560px';

/** The face a cloud is drawn in by default: the upright one closest to bold. */
export function boldestFace(children: ChildFontResource[]): ChildFontResource | undefined {
  return [...children]
    .filter((child) => child.id !== undefined && !child['italic'])
    .sort((a, b) => Math.abs(Number(a['weight'] ?? 400) - 700) - Math.abs(Number(b['weight'] ?? 400) - 700))[0];
}
