import * as fontkit from 'fontkit';
import { FontInputError } from './font-errors.ts';
import { readSfnt, tableOf, viewOf } from './sfnt.ts';
import { cmapOf, familyNameOf, glyphSizesOf } from './sfnt-info.ts';

// SVG fonts (SVG 1.1 <font>) are only read by old iOS Safari (before 5) and some design tools; no
// browser today uses them. They are offered for those legacy uses: each mapped character becomes
// a <glyph> whose path fontkit draws from the TrueType or CFF outline. SVG fonts cannot carry
// OpenType layout or hinting, which is why every other format is preferred.

/** Characters XML 1.0 cannot hold at all: C0 controls other than tab, line feed and carriage return. */
const isForbiddenInXml = (code: number) => code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d;

const escapeXml = (text: string) =>
  [...text]
    .filter((ch) => !isForbiddenInXml(ch.charCodeAt(0)))
    .join('')
    .replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** The advance width of each glyph from hhea and hmtx (glyphs past numberOfHMetrics repeat the last). */
function advanceWidths(font: ReturnType<typeof readSfnt>): (glyphId: number) => number {
  const hhea = tableOf(font, 'hhea');
  const hmtx = tableOf(font, 'hmtx');
  if (!hhea || !hmtx || hhea.byteLength < 36) return () => 0;
  const metrics = Math.min(viewOf(hhea).getUint16(34), Math.floor(hmtx.byteLength / 4));
  const view = viewOf(hmtx);
  return (glyphId) => (metrics === 0 ? 0 : view.getUint16(Math.min(glyphId, metrics - 1) * 4));
}

/** Writes an SVG font with one glyph per code point the font maps, plus its missing glyph. */
export function encodeSvgFont(sfnt: Uint8Array, onProgress?: (done: number) => void): Uint8Array {
  const parsed = readSfnt(sfnt);
  const cmap = cmapOf(parsed);
  let font: fontkit.Font;
  try {
    font = fontkit.create(Buffer.from(sfnt.buffer, sfnt.byteOffset, sfnt.byteLength)) as fontkit.Font;
  } catch (error) {
    throw new FontInputError('corrupt', `fontkit: ${(error as Error).message}`);
  }
  const head = tableOf(parsed, 'head');
  const unitsPerEm = head ? viewOf(head).getUint16(18) : font.unitsPerEm;
  const family = escapeXml(familyNameOf(parsed) || font.familyName || 'Font');
  const id = escapeXml((font.postscriptName || 'font').replace(/[^A-Za-z0-9_-]/g, '')) || 'font';
  const parts: string[] = [
    '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n',
    '<svg xmlns="http://www.w3.org/2000/svg" version="1.1">\n<defs>\n',
    `<font id="${id}" horiz-adv-x="${unitsPerEm}">\n`,
    `<font-face font-family="${family}" units-per-em="${unitsPerEm}" ascent="${font.ascent}" descent="${font.descent}"`,
    ` font-weight="${(font['OS/2'] as { usWeightClass?: number } | undefined)?.usWeightClass ?? 400}"/>\n`,
  ];
  // fontkit reads a glyph header even for a glyph without outline data, which runs past the end of
  // glyf when such a glyph comes last (DotGothic16's space does): those glyphs are drawn here as
  // what they are, an advance without a path, from hmtx.
  const trueTypeSizes = tableOf(parsed, 'glyf') ? glyphSizesOf(parsed) : undefined;
  const advanceOf = advanceWidths(parsed);
  const drawn = new Map<number, string>();
  const glyphElement = (glyphId: number) => {
    let cached = drawn.get(glyphId);
    if (cached === undefined) {
      if (trueTypeSizes && trueTypeSizes[glyphId] === 0) {
        cached = ` horiz-adv-x="${advanceOf(glyphId)}"`;
      } else {
        const glyph = font.getGlyph(glyphId);
        const d = glyph.path.toSVG();
        cached = ` horiz-adv-x="${Math.round(glyph.advanceWidth)}"${d ? ` d="${d}"` : ''}`;
      }
      drawn.set(glyphId, cached);
    }
    return cached;
  };
  parts.push(`<missing-glyph${glyphElement(0)}/>\n`);
  let done = 0;
  for (const [codePoint, glyphId] of [...cmap].sort((a, b) => a[0] - b[0])) {
    parts.push(`<glyph unicode="&#x${codePoint.toString(16)};"${glyphElement(glyphId)}/>\n`);
    if (++done % 2000 === 0) onProgress?.(done / cmap.size);
  }
  parts.push('</font>\n</defs>\n</svg>\n');
  return new TextEncoder().encode(parts.join(''));
}
