import * as fontkit from 'fontkit';
import type { WordFont } from './draw.ts';
import type { PlacedWord } from './layout.ts';

// The cloud as SVG, with the same geometry as the PNG: each word is drawn at its anchor, turned by
// its angle, centred on the baseline. Words stay text (an embedded subset WOFF2 shows them in any
// browser; Illustrator and Inkscape keep them editable and name the family) or become outlines.

const escapeXml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
const round = (value: number) => Math.round(value * 100) / 100;

export interface SvgOptions {
  width: number;
  height: number;
  background: string | null;
  /** The family name as people know it, named after the embedded face for editors. */
  familyName: string;
}

function frame(options: SvgOptions, body: string, defs = ''): string {
  const { width, height, background } = options;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    defs,
    background ? `<rect width="100%" height="100%" fill="${background}"/>` : '',
    body,
    '</svg>',
  ]
    .filter(Boolean)
    .join('\n');
}

const placement = (word: PlacedWord) =>
  `translate(${round(word.x)} ${round(word.y)})${word.angle ? ` rotate(${word.angle})` : ''}`;

/** The cloud with its words as text, in the embedded subset of the font (WOFF2 bytes). */
export function cloudSvgText(
  font: WordFont,
  words: ReadonlyArray<PlacedWord & { color: string }>,
  woff2: Uint8Array,
  options: SvgOptions,
): string {
  const face = 'cloud-face';
  const family = `'${face}', '${options.familyName.replace(/['\\]/g, '')}', sans-serif`;
  const defs = `<defs><style>@font-face{font-family:'${face}';src:url(data:font/woff2;base64,${Buffer.from(woff2).toString('base64')}) format('woff2')}text{font-family:${family}}</style></defs>`;
  const body = words
    .map((word) => {
      const runs = font.runsOf(word);
      const spans =
        runs.length === 1 && runs[0]?.dy === 0
          ? escapeXml(word.text)
          : runs
              .map((run) => `<tspan x="${round(run.dx)}" y="${round(run.dy)}">${escapeXml(run.text)}</tspan>`)
              .join('');
      return `<text transform="${placement(word)}" font-size="${word.size}" text-anchor="middle" fill="${word.color}">${spans}</text>`;
    })
    .join('\n');
  return frame(options, body, defs);
}

/** The cloud with its words as outlines (paths from fontkit), for print and cutting plotters. */
export function cloudSvgOutlines(
  font: WordFont,
  sfnt: Uint8Array,
  words: ReadonlyArray<PlacedWord & { color: string }>,
  options: SvgOptions,
): string {
  const parsed = fontkit.create(Buffer.from(sfnt.buffer, sfnt.byteOffset, sfnt.byteLength)) as fontkit.Font;
  const upm = parsed.unitsPerEm;
  const body = words
    .map((word) => {
      const scale = word.size / upm;
      const paths = font.runsOf(word).map((run) => {
        const shaped = parsed.layout(run.text);
        const advance = shaped.positions.reduce((sum, position) => sum + position.xAdvance, 0);
        let pen = -advance / 2;
        const glyphs = shaped.glyphs.map((glyph, i) => {
          const position = shaped.positions[i] as fontkit.GlyphPosition;
          const d = glyph.path.toSVG();
          const at = pen + position.xOffset;
          pen += position.xAdvance;
          return d ? `<path transform="translate(${round(at)} ${round(position.yOffset)})" d="${d}"/>` : '';
        });
        return `<g transform="translate(${round(run.dx)} ${round(run.dy)}) scale(${round(scale * 10000) / 10000} ${-round(scale * 10000) / 10000})">${glyphs.join('')}</g>`;
      });
      return `<g transform="${placement(word)}" fill="${word.color}"><title>${escapeXml(word.text)}</title>${paths.join('')}</g>`;
    })
    .join('\n');
  return frame(options, body);
}
