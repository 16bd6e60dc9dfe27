import type { CloudPalette } from '../../../contract/word-cloud.ts';
import type { PlacedWord } from './layout.ts';

/** Colour palettes of the tool, named as the page shows them. */
export const PALETTES = {
  vermilion: ['#b8261c', '#d9452f', '#8f1d14', '#e07a3f', '#3d2b26'],
  ink: ['#1f1f1f', '#3d3d3d', '#5c5c5c', '#7a7a7a', '#a3a3a3'],
  celadon: ['#1f5e63', '#2f8a84', '#6fb3a6', '#a4c9b8', '#234554'],
  porcelain: ['#1b3f8b', '#2f5fb3', '#5b86d6', '#98b4e8', '#12275c'],
  autumn: ['#9c3d1c', '#c8672a', '#e3a048', '#6f7d33', '#4a2d1f'],
  spring: ['#d3577a', '#f08b9c', '#7fb069', '#f4c95d', '#5a8dbf'],
  neon: ['#ff3d7f', '#ffb400', '#2ee6d6', '#7c4dff', '#00c853'],
} as const satisfies Record<CloudPalette, readonly string[]>;
export type PaletteName = CloudPalette;

/** Colours the words in turn from a palette, strongest words taking the first colours. */
export function paletteColors(
  words: readonly PlacedWord[],
  palette: readonly string[],
  random: () => number,
): string[] {
  return words.map((_word, i) =>
    i < palette.length ? (palette[i] as string) : (palette[Math.floor(random() * palette.length)] as string),
  );
}

const hex = (value: number) => Math.round(value).toString(16).padStart(2, '0');

/**
 * Colours each word from the picture under it: the mean of the opaque pixels around its anchor.
 * Pale samples (on a white or empty part of the picture) fall back to `fallback`.
 */
export function pictureColors(
  words: readonly PlacedWord[],
  picture: { width: number; height: number; rgba: Uint8Array },
  fallback: string,
): string[] {
  return words.map((word) => {
    const radius = Math.max(2, Math.round(word.size / 4));
    let r = 0;
    let g = 0;
    let b = 0;
    let n = 0;
    for (let y = Math.round(word.y - word.size / 3) - radius; y <= Math.round(word.y - word.size / 3) + radius; y++) {
      if (y < 0 || y >= picture.height) continue;
      for (let x = Math.round(word.x) - radius; x <= Math.round(word.x) + radius; x++) {
        if (x < 0 || x >= picture.width) continue;
        const i = (y * picture.width + x) * 4;
        if ((picture.rgba[i + 3] as number) < 128) continue;
        r += picture.rgba[i] as number;
        g += picture.rgba[i + 1] as number;
        b += picture.rgba[i + 2] as number;
        n++;
      }
    }
    if (n === 0) return fallback;
    r /= n;
    g /= n;
    b /= n;
    // Near-white would vanish on the usual white background.
    if (0.2126 * r + 0.7152 * g + 0.0722 * b > 225) return fallback;
    return `#${hex(r)}${hex(g)}${hex(b)}`;
  });
}
