import { decodeEot, encodeEot } from './eot.ts';
import { checkFont } from './font-check.ts';
import { FontInputError } from './font-errors.ts';
import { type FontFormat, sniffFontFormat } from './font-format.ts';
import { FLAVOR_CFF, FLAVOR_TRUETYPE, type OutlineKind, outlineKind, readSfnt, writeSfnt } from './sfnt.ts';
import { cmapOf, familyNameOf, glyphCountOf } from './sfnt-info.ts';
import { encodeSvgFont } from './svg-font.ts';
import { collectionSize, extractCollectionFace } from './ttc.ts';
import { decodeWoff, encodeWoff } from './woff.ts';
import { decodeWoff2, encodeWoff2 } from './woff2.ts';

// Which conversions are sound, and why (docs/tools.md):
// - WOFF, WOFF2 and EOT are wrappers: the tables go in and come out unchanged, so any font can be
//   wrapped and unwrapped (EOT only around TrueType outlines, the only kind IE reads in EOT).
// - TTF and OTF differ in their outlines (quadratic glyf vs cubic CFF). Unwrapping gives back the
//   font's own outlines, so TTF is offered for TrueType fonts and OTF for CFF fonts. Turning one
//   kind into the other redraws every curve and drops hinting; the converters that do it
//   (fonteditor-core's otf2ttf) also drop GSUB/GPOS/vmtx, which breaks CJK punctuation and
//   vertical text, so we refuse rather than hand out a quietly damaged font.
// - SVG fonts are drawn from the outlines for legacy uses and lose layout and hinting by nature.

/** The formats the converter writes. */
export const TARGET_FORMATS = ['ttf', 'otf', 'woff', 'woff2', 'eot', 'svg'] as const;
/** One format the converter writes. */
export type TargetFormat = (typeof TARGET_FORMATS)[number];

/** The largest font (in bytes) a compressed or wrapped file may expand to: beyond it, a bomb. */
export const DEFAULT_MAX_SFNT_BYTES = 64 << 20;

/** Why a target format cannot be made from a font with these outlines, or undefined when it can. */
export function conversionProblem(outline: OutlineKind, target: TargetFormat): string | undefined {
  if (target === 'ttf' && outline === 'cff') {
    return '这款字体是 CFF（PostScript）轮廓，只能导出为 OTF：转换成 TrueType 轮廓要重画所有曲线并会丢失排版特性，请选择 OTF、WOFF 或 WOFF2';
  }
  if (target === 'otf' && outline === 'truetype') {
    return '这款字体是 TrueType 轮廓，只能导出为 TTF：OTF（CFF 轮廓）需要重画所有曲线，请选择 TTF、WOFF 或 WOFF2';
  }
  if (target === 'eot' && outline === 'cff') {
    return 'EOT 只用于旧版 IE，只能封装 TrueType 轮廓的字体，这款 CFF 轮廓的字体请选择 OTF、WOFF 或 WOFF2';
  }
  return undefined;
}

/** What the tools tell about an uploaded font. */
export interface FontDescription {
  format: FontFormat;
  /** Fonts in the file: 1, or the member count of a TTC. */
  faces: number;
  familyName: string;
  glyphCount: number;
  outline: OutlineKind;
  /** How many code points the cmap maps. */
  characterCount: number;
}

/**
 * Unwraps any supported file into one standalone TTF/OTF (for a TTC, member `faceIndex`).
 * Throws FontInputError with a message for the user when the bytes are not a usable font.
 */
export async function decodeFont(
  bytes: Uint8Array,
  options: { faceIndex?: number; maxSfntBytes?: number } = {},
): Promise<{ format: FontFormat; faces: number; sfnt: Uint8Array }> {
  const format = sniffFontFormat(bytes);
  const max = options.maxSfntBytes ?? DEFAULT_MAX_SFNT_BYTES;
  const faceIndex = options.faceIndex ?? 0;
  if (!format) throw new FontInputError('not-font', 'unknown magic');
  if (format !== 'ttc' && faceIndex !== 0) {
    throw new FontInputError('face-index', 'not a collection', '这个文件只有一款字体，字体序号只能是 0');
  }
  switch (format) {
    case 'ttf':
    case 'otf':
      return { format, faces: 1, sfnt: bytes };
    case 'ttc':
      return { format, faces: collectionSize(bytes), sfnt: extractCollectionFace(bytes, faceIndex) };
    case 'woff':
      return { format, faces: 1, sfnt: decodeWoff(bytes, max) };
    case 'woff2':
      return { format, faces: 1, sfnt: await decodeWoff2(bytes, max) };
    case 'eot':
      return { format, faces: 1, sfnt: decodeEot(bytes) };
  }
}

/**
 * Reads a file the way the converter will and describes it; throws FontInputError when any part
 * the converter needs (directory, maxp, cmap, outlines) is missing, cut short or unreadable.
 */
export async function describeFont(bytes: Uint8Array, maxSfntBytes = DEFAULT_MAX_SFNT_BYTES): Promise<FontDescription> {
  const { format, faces, sfnt } = await decodeFont(bytes, { maxSfntBytes });
  if (format === 'ttc') for (let i = 1; i < faces; i++) extractCollectionFace(bytes, i);
  const font = readSfnt(sfnt);
  if (font.flavor !== FLAVOR_TRUETYPE && font.flavor !== FLAVOR_CFF && font.flavor !== 0x74727565) {
    throw new FontInputError('not-font', `unknown sfnt flavour ${font.flavor.toString(16)}`);
  }
  checkFont(sfnt);
  const glyphCount = glyphCountOf(font);
  if (glyphCount === 0) throw new FontInputError('corrupt', 'no glyphs');
  return {
    format,
    faces,
    familyName: familyNameOf(font),
    glyphCount,
    outline: outlineKind(font),
    characterCount: cmapOf(font).size,
  };
}

/**
 * Checks a font the tools wrote, in any sfnt-based format, with the rules uploads pass (font-check.ts):
 * an output that a browser would refuse is never offered. SVG fonts are XML and not checked here.
 */
export async function checkWrittenFont(bytes: Uint8Array, format: TargetFormat | 'ttc'): Promise<void> {
  try {
    if (format === 'svg') return;
    if (format === 'woff') checkFont(decodeWoff(bytes, DEFAULT_MAX_SFNT_BYTES));
    else if (format === 'woff2') checkFont(await decodeWoff2(bytes, DEFAULT_MAX_SFNT_BYTES));
    else if (format === 'eot') checkFont(decodeEot(bytes));
    else checkFont(bytes);
  } catch (error) {
    const detail = error instanceof FontInputError ? error.message : String(error);
    throw new FontInputError(
      'corrupt',
      `written ${format}: ${detail}`,
      `生成的字体未通过检查（${detail}），已停止，请联系我们`,
    );
  }
}

/** How a conversion says where it is, for a progress display. */
export interface ConvertReport {
  /** The share of the encoding done, from encoders that can tell (WOFF by table, SVG by glyph). */
  progress?: (fraction: number) => void;
  /**
   * The stage now running: encoding with a share to report, encoding in one call that cannot tell
   * how far it is (WOFF2: Brotli at quality 11 over the whole font), or checking the written font.
   */
  stage?: (stage: 'encoding' | 'encoding-opaque' | 'checking') => void;
}

/** Writes a standalone font in one target format; refuses unsound targets (see conversionProblem). */
export async function convertFont(
  sfnt: Uint8Array,
  target: TargetFormat,
  report: ConvertReport = {},
): Promise<Uint8Array> {
  report.stage?.(target === 'woff2' ? 'encoding-opaque' : 'encoding');
  const written = await writeFont(sfnt, target, report.progress);
  report.stage?.('checking');
  await checkWrittenFont(written, target);
  return written;
}

async function writeFont(
  sfnt: Uint8Array,
  target: TargetFormat,
  onProgress?: (fraction: number) => void,
): Promise<Uint8Array> {
  const font = readSfnt(sfnt);
  const outline = outlineKind(font);
  const problem = conversionProblem(outline, target);
  if (problem) throw new FontInputError('incompatible', `${outline} to ${target}`, problem);
  switch (target) {
    case 'ttf':
    case 'otf':
      // Rewritten rather than passed through, so the file has a clean directory and checksums.
      return writeSfnt(font);
    case 'woff':
      return encodeWoff(sfnt, onProgress);
    case 'woff2':
      return encodeWoff2(sfnt);
    case 'eot':
      return encodeEot(writeSfnt(font));
    case 'svg':
      return encodeSvgFont(sfnt, onProgress);
  }
}
