// The library as the soak sees it: every face the server lists, with its file in the server's data
// folder and the characters it maps, read from that file (not from the server), so that the
// server's answers are checked against the fonts themselves.
import fs from 'node:fs';
import path from 'node:path';
import type { FontResource } from '../../../src/contract/fonts.ts';
import { readCmapCodePoints } from '../../helpers/cmap.ts';

/** One face of the library. */
export interface SoakFace {
  /** The child font's id, by which the tools name it. */
  id: number;
  /** The face's gno (previews), and its family's. */
  gno: string;
  family: string;
  file: string;
  bytes: number;
  cmap(): Set<number>;
}

/** The faces of the library, read through the server's own list. */
export async function libraryFaces(base: string, dataDir: string): Promise<SoakFace[]> {
  const answer = (await (await fetch(`${base}/web/api/fontOverride/getFontList?current=1&size=100`)).json()) as {
    data: { records: FontResource[] };
  };
  const faces: SoakFace[] = [];
  for (const family of answer.data.records) {
    for (const child of family.childFontResource) {
      const file = path.join(dataDir, 'storage', child.ttfPath.replace(/^\/files\//, ''));
      if (!fs.existsSync(file)) continue;
      let cmap: Set<number> | undefined;
      faces.push({
        id: child.id,
        gno: child.fontGNo,
        family: family.fontGNo,
        file,
        bytes: fs.statSync(file).size,
        cmap: () => {
          cmap ??= readCmapCodePoints(new Uint8Array(fs.readFileSync(file)));
          return cmap;
        },
      });
    }
  }
  if (faces.length === 0) throw new Error('the library lists no faces: seed it with npm start first');
  return faces;
}

/** The most common Chinese characters (通用规范汉字表, level 1), the pool texts are drawn from. */
export const COMMON = [...fs.readFileSync('src/server/engine/data/tongyong-level1.txt', 'utf8').trim()].filter(
  (character) => /\p{Script=Han}/u.test(character),
);

/** A seeded random source, so that two soaks ask for the same things in the same order. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** Picks one item. */
export function pick<T>(items: readonly T[], random: () => number): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('picked from an empty list');
  return item;
}

/** `length` distinct characters; with `face`, only characters it maps. */
export function sampleText(length: number, random: () => number, face?: SoakFace): string {
  const cmap = face?.cmap();
  const pool = cmap ? COMMON.filter((character) => cmap.has(character.codePointAt(0) as number)) : COMMON;
  const picked = new Set<string>();
  while (picked.size < Math.min(length, pool.length)) picked.add(pick(pool, random));
  return [...picked].join('');
}
