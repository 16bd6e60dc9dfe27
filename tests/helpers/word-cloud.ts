import fs from 'node:fs';
import sharp from 'sharp';
import { decodeFont } from '../../src/server/engine/convert.ts';
import { type CloudRequest, loadWordFont } from '../../src/server/engine/wordcloud/cloud.ts';
import type { WordFont } from '../../src/server/engine/wordcloud/draw.ts';
import type { Mask, WordForm } from '../../src/server/engine/wordcloud/layout.ts';
import type { WeightedWord } from '../../src/server/engine/wordcloud/words.ts';
import { templateSvg } from '../../src/server/tools/wordcloud/templates.ts';

/** A word as an SVG of the cloud places it. */
export interface SvgWord extends WordForm {
  x: number;
  y: number;
}

/** The fixture Noto Sans SC, ready to draw words. */
export async function fixtureWordFont(): Promise<WordFont> {
  const bytes = fs.readFileSync('tests/fixtures/fonts/noto-sans-sc/NotoSansSC_700Bold.ttf');
  return loadWordFont({ bytes: (await decodeFont(new Uint8Array(bytes))).sfnt });
}

/** Reads the words back from a cloud's SVG (text mode): anchor, angle, size, text and direction. */
export function wordsOfSvg(svg: string): SvgWord[] {
  const words: SvgWord[] = [];
  const pattern =
    /<text transform="translate\(([-\d.]+) ([-\d.]+)\)(?: rotate\(([-\d.]+)\))?" font-size="(\d+)"[^>]*>(.*?)<\/text>/g;
  for (const match of svg.matchAll(pattern)) {
    const body = match[5] ?? '';
    const spans = [...body.matchAll(/<tspan[^>]*>(.*?)<\/tspan>/g)].map((span) => span[1] ?? '');
    const decode = (text: string) => text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
    words.push({
      x: Number(match[1]),
      y: Number(match[2]),
      angle: Number(match[3] ?? 0),
      size: Number(match[4]),
      text: decode(spans.length > 0 ? spans.join('') : body),
      vertical: spans.length > 0,
    });
  }
  return words;
}

/**
 * Draws each word alone at its place on a canvas-sized grid and counts the pixels of solid ink
 * (alpha ≥ 128) two words share, and those outside the mask.
 */
export function inkConflicts(
  font: WordFont,
  words: readonly SvgWord[],
  mask: Mask,
): { overlapping: number; outside: number; inked: number } {
  const owner = new Int32Array(mask.width * mask.height).fill(-1);
  let overlapping = 0;
  let outside = 0;
  let inked = 0;
  words.forEach((word, index) => {
    const ink = font.ink(word, 1);
    const originX = Math.round(word.x) + ink.left;
    const originY = Math.round(word.y) + ink.top;
    for (let y = 0; y < ink.height; y++) {
      for (let x = 0; x < ink.width; x++) {
        if ((ink.alpha[y * ink.width + x] as number) < 128) continue;
        inked++;
        const cx = originX + x;
        const cy = originY + y;
        if (cx < 0 || cy < 0 || cx >= mask.width || cy >= mask.height || !mask.inside[cy * mask.width + cx]) {
          outside++;
          continue;
        }
        const at = cy * mask.width + cx;
        if ((owner[at] as number) >= 0 && owner[at] !== index) overlapping++;
        owner[at] = index;
      }
    }
  });
  return { overlapping, outside, inked };
}

/** Decodes a PNG and answers its size and how many pixels are not background. */
export async function pngStats(png: Uint8Array): Promise<{ width: number; height: number; inked: number }> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  let inked = 0;
  for (let i = 0; i < info.width * info.height; i++) {
    const [r, g, b] = [data[i * 4] as number, data[i * 4 + 1] as number, data[i * 4 + 2] as number];
    if (r + g + b < 600) inked++;
  }
  return { width: info.width, height: info.height, inked };
}

/** A cloud of the words inside the heart template, mixed turns, on white; `overrides` change any part. */
export function heartCloudRequest(
  font: WordFont,
  words: readonly WeightedWord[],
  overrides: Partial<CloudRequest> = {},
): CloudRequest {
  return {
    words,
    font,
    familyName: 'Noto Sans SC',
    width: 1000,
    height: 1000,
    shape: { kind: 'picture', bytes: new Uint8Array(Buffer.from(templateSvg(103) ?? '')), threshold: 0.5 },
    orientation: 'mixed',
    verticalText: true,
    colors: { palette: 'vermilion' },
    background: '#ffffff',
    seed: 1,
    ...overrides,
  };
}
