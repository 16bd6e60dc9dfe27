import * as fontkit from 'fontkit';
import { type Coverage, countCoverage } from './charsets.ts';

/** What the font library records about one font file, all read from the file itself. */
export interface FontMetadata {
  /** Typographic family name in English (name ID 16, else 1), e.g. 'Noto Sans SC'. */
  familyName: string;
  /** Family name from a Simplified Chinese name record (zh-CN, zh-SG), when the font has one. */
  familyNameZhHans: string | undefined;
  /** Family name from a Traditional Chinese name record (zh-TW, zh-HK, zh-MO), when the font has one. */
  familyNameZhHant: string | undefined;
  /** Typographic subfamily (name ID 17, else 2), e.g. 'Bold'. */
  styleName: string;
  fullName: string;
  postscriptName: string;
  /** The CSS weight, 100–900: usWeightClass, or the style name's weight when the class is a compatibility value. */
  weight: number;
  /** OS/2 usWeightClass as stored, 1–1000 (Thin and ExtraLight faces often say 250 for old Windows). */
  weightClass: number;
  italic: boolean;
  glyphCount: number;
  unitsPerEm: number;
  /** The version string (name ID 5), e.g. 'Version 2.004'. */
  version: string;
  copyright: string | undefined;
  designer: string | undefined;
  manufacturer: string | undefined;
  licenseDescription: string | undefined;
  licenseUrl: string | undefined;
  /** How many code points of each coverage set the cmap maps to a glyph. */
  coverage: Coverage;
}

/** Thrown when the bytes are not a single font fontkit can read. */
export class FontFormatError extends Error {
  override name = 'FontFormatError';
}

/** fontkit's name table: records keyed by name, then by language tag ('en', 'zh', 'zh-TW', ...). */
type NameKey =
  | 'copyright'
  | 'fontFamily'
  | 'fontSubfamily'
  | 'fullName'
  | 'version'
  | 'postscriptName'
  | 'manufacturer'
  | 'designer'
  | 'license'
  | 'licenseURL'
  | 'preferredFamily'
  | 'preferredSubfamily';
type NameRecords = Partial<Record<NameKey, Record<string, string>>>;

// fontkit tags Windows language 0x0804 as 'zh'; Mac records use 'zh' / 'zh-Hant'.
const HANS_TAGS = ['zh-CN', 'zh', 'zh-SG', 'zh-Hans'];
const HANT_TAGS = ['zh-TW', 'zh-HK', 'zh-MO', 'zh-Hant'];

function pick(record: Record<string, string> | undefined, tags: string[]): string | undefined {
  if (!record) return undefined;
  for (const tag of tags) {
    const value = record[tag]?.trim();
    if (value) return value;
  }
  return undefined;
}

/** The English entry of a name record, or any entry when the font has no English one. */
function english(record: Record<string, string> | undefined): string | undefined {
  return (
    pick(record, ['en']) ??
    (record
      ? Object.values(record)
          .find((value) => value.trim())
          ?.trim()
      : undefined)
  );
}

// Style words in order of precedence ('ExtraBold' must win over 'Bold').
const STYLE_WEIGHTS: Array<[RegExp, number]> = [
  [/extra\s*light|ultra\s*light/i, 200],
  [/semi\s*bold|demi\s*bold/i, 600],
  [/extra\s*bold|ultra\s*bold/i, 800],
  [/thin|hairline/i, 100],
  [/light/i, 300],
  [/medium/i, 500],
  [/black|heavy/i, 900],
  [/bold/i, 700],
];

/**
 * The CSS weight of a face. Many CJK fonts give Thin and ExtraLight the class 250 so that old Windows
 * does not fake-embolden them; the style name tells the intended weight in that case.
 */
export function cssWeight(weightClass: number, styleName: string): number {
  if (weightClass >= 100 && weightClass <= 900 && weightClass % 100 === 0) return weightClass;
  const named = STYLE_WEIGHTS.find(([pattern]) => pattern.test(styleName))?.[1];
  if (named) return named;
  return Math.min(900, Math.max(100, Math.round(weightClass / 100) * 100 || 400));
}

function openFont(bytes: Uint8Array): fontkit.Font {
  let font: ReturnType<typeof fontkit.create>;
  try {
    // fontkit reads any Uint8Array; its types ask for a Buffer.
    font = fontkit.create(bytes as Buffer);
  } catch (error) {
    throw new FontFormatError(`Not a font fontkit can read: ${(error as Error).message}`);
  }
  if (!font || 'fonts' in font) throw new FontFormatError('Font collections are not supported; give a single font');
  return font;
}

const LEGACY_WEIGHT =
  /\s(Thin|Hairline|ExtraLight|UltraLight|Light|Book|Medium|SemiBold|DemiBold|ExtraBold|UltraBold|Black|Heavy)$/i;

/**
 * The style of a font without typographic names (ID 16/17), as web-font subsetters leave them: the
 * legacy names put a weight other than Regular and Bold in the family ('LXGW WenKai Light' +
 * 'Regular'), so that weight is the style ('Light'; 'Light Italic' with an 'Italic' subfamily).
 */
function legacyStyle(family: string | undefined, subfamily: string | undefined): string {
  const style = subfamily ?? 'Regular';
  const weight = LEGACY_WEIGHT.exec(family ?? '')?.[1];
  if (!weight || !/^(Regular|Italic)$/i.test(style)) return style;
  return /^Italic$/i.test(style) ? `${weight} Italic` : weight;
}

/**
 * Reads a font's names, weight, style, glyph count and character-set coverage from its bytes
 * (TTF, OTF, WOFF or WOFF2). Pure: bytes in, data out; throws FontFormatError for other input.
 */
export function readFontMetadata(bytes: Uint8Array): FontMetadata {
  const font = openFont(bytes);
  const records = ((font as unknown as { name?: { records?: NameRecords } }).name?.records ?? {}) as NameRecords;
  const os2 = font['OS/2'] as
    | { usWeightClass?: number; fsSelection?: { italic?: boolean; oblique?: boolean } }
    | undefined;
  const head = (font as unknown as { head?: { macStyle?: { italic?: boolean } } }).head;

  const familyRecord = records.preferredFamily ?? records.fontFamily;
  const familyName = english(familyRecord) ?? font.familyName;
  const styleName =
    english(records.preferredSubfamily) ?? legacyStyle(english(records.fontFamily), english(records.fontSubfamily));
  const zhFamily = (tags: string[]) => pick(records.preferredFamily, tags) ?? pick(records.fontFamily, tags);

  const weightClass = os2?.usWeightClass ?? 400;

  return {
    familyName,
    familyNameZhHans: zhFamily(HANS_TAGS),
    familyNameZhHant: zhFamily(HANT_TAGS),
    styleName,
    fullName: english(records.fullName) ?? `${familyName} ${styleName}`,
    postscriptName: english(records.postscriptName) ?? font.postscriptName ?? '',
    weight: cssWeight(weightClass, styleName),
    weightClass,
    // The style bits, not post.italicAngle: fontkit parses the whole post table (every glyph name) to
    // answer that, which takes 50 ms on a 58 000-glyph font.
    italic: Boolean(os2?.fsSelection?.italic || os2?.fsSelection?.oblique || head?.macStyle?.italic),
    glyphCount: font.numGlyphs,
    unitsPerEm: font.unitsPerEm,
    version: english(records.version) ?? '',
    copyright: english(records.copyright),
    designer: english(records.designer),
    manufacturer: english(records.manufacturer),
    licenseDescription: english(records.license),
    licenseUrl: english(records.licenseURL),
    // Looking up the ~23 000 set members is faster than listing a large font's whole cmap.
    coverage: countCoverage((cp) => font.hasGlyphForCodePoint(cp)),
  };
}
