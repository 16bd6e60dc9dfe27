import * as fontkit from 'fontkit';
import { FontInputError } from './font-errors.ts';
import { readSfnt, tableOf, viewOf } from './sfnt.ts';

// One glyph of a face, read for the glyph browser's zoom and the compare page's overlay: its outline
// and the metrics a designer checks (advance, side bearing, bounding box), in font units. Meant for
// a small subset of the face (a few glyphs), which fontkit reads in about a millisecond.

/** A glyph's outline and metrics, in font units (y up). */
export interface GlyphOutline {
  unitsPerEm: number;
  ascender: number;
  descender: number;
  advanceWidth: number;
  advanceHeight: number | undefined;
  leftSideBearing: number;
  bbox: { xMin: number; yMin: number; xMax: number; yMax: number };
  path: string;
  verticalForm: boolean;
}

/** What fontkit's font object has beyond its published types. */
type ReadFont = fontkit.Font & { 'OS/2'?: { typoAscender?: number; typoDescender?: number } };

const round = (n: number) => Math.round(n * 100) / 100;

/**
 * A glyph's vertical advance from vhea and vmtx (glyphs past numberOfLongVerMetrics repeat the
 * last), read here because fontkit 2 answers 0 for it; undefined when the face has no vertical metrics.
 */
function verticalAdvance(sfnt: Uint8Array, glyphId: number): number | undefined {
  const font = readSfnt(sfnt);
  const vhea = tableOf(font, 'vhea');
  const vmtx = tableOf(font, 'vmtx');
  if (!vhea || !vmtx || vhea.byteLength < 36) return undefined;
  const metrics = Math.min(viewOf(vhea).getUint16(34), Math.floor(vmtx.byteLength / 4));
  if (metrics === 0) return undefined;
  return viewOf(vmtx).getUint16(Math.min(glyphId, metrics - 1) * 4);
}

/** Reads the glyph `codePoint` maps to in `sfnt`; undefined when the face does not map it. */
export function glyphOutline(sfnt: Uint8Array, codePoint: number): GlyphOutline | undefined {
  let font: ReadFont;
  try {
    font = fontkit.create(Buffer.from(sfnt.buffer, sfnt.byteOffset, sfnt.byteLength)) as ReadFont;
  } catch (error) {
    throw new FontInputError('corrupt', `fontkit: ${(error as Error).message}`);
  }
  // A subset without any of the asked-for characters has no cmap, which fontkit cannot read.
  let mapped = false;
  try {
    mapped = font.hasGlyphForCodePoint(codePoint);
  } catch {
    mapped = false;
  }
  if (!mapped) return undefined;
  const glyph = font.glyphForCodePoint(codePoint);
  const bbox = glyph.bbox;
  const os2 = font['OS/2'];
  const vertical = font.layout(String.fromCodePoint(codePoint), ['vert']);
  return {
    unitsPerEm: font.unitsPerEm,
    ascender: os2?.typoAscender ?? font.ascent,
    descender: os2?.typoDescender ?? font.descent,
    advanceWidth: glyph.advanceWidth,
    advanceHeight: verticalAdvance(sfnt, glyph.id),
    leftSideBearing: Number.isFinite(bbox.minX) ? bbox.minX : 0,
    bbox: Number.isFinite(bbox.minX)
      ? { xMin: round(bbox.minX), yMin: round(bbox.minY), xMax: round(bbox.maxX), yMax: round(bbox.maxY) }
      : { xMin: 0, yMin: 0, xMax: 0, yMax: 0 },
    path: glyph.path.toSVG(),
    verticalForm: vertical.glyphs.some((shaped) => shaped.id !== glyph.id),
  };
}
