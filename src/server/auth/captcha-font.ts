import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { fontFamilies, fonts } from '../db/schema/index.ts';
import { log } from '../log.ts';
import type { Storage } from '../storage/index.ts';
import { BackgroundSet, registerCaptchaFont } from './captcha-image.ts';

// Brush and calligraphic families of the library, best first; any of them gives the inscriptions
// on the captcha backgrounds the look of a hanging scroll.
const BRUSH_FAMILIES = ['ma-shan-zheng', 'zhi-mang-xing', 'liu-jian-mao-cao', 'zcool-xiaowei', 'noto-serif-sc'];
// Fonts larger than this are skipped: the backgrounds are drawn once, but the bytes stay in memory.
const MAX_FONT_BYTES = 24 * 1024 * 1024;

async function readAll(storage: Storage, key: string): Promise<Uint8Array | undefined> {
  const object = await storage.get(key);
  if (!object || object.size > MAX_FONT_BYTES) {
    object?.body.destroy();
    return undefined;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of object.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Registers a brush font from the font library for the captcha, or answers undefined when the
 * library has none yet (the backgrounds then use painted brush strokes instead of characters).
 */
export async function loadBrushFont(db: Db, storage: Storage): Promise<string | undefined> {
  try {
    const rows = await db
      .select({ gno: fontFamilies.gno, fileKey: fonts.fileKey, weight: fonts.weight })
      .from(fonts)
      .innerJoin(fontFamilies, eq(fontFamilies.id, fonts.familyId))
      .where(inArray(fontFamilies.gno, BRUSH_FAMILIES));
    rows.sort((a, b) => BRUSH_FAMILIES.indexOf(a.gno) - BRUSH_FAMILIES.indexOf(b.gno) || a.weight - b.weight);
    for (const row of rows) {
      const bytes = await readAll(storage, row.fileKey);
      const alias = bytes && registerCaptchaFont(bytes);
      if (alias) return alias;
    }
  } catch (error) {
    log().warn({ err: error }, 'Could not load a brush font for the captcha; drawing strokes instead');
  }
  return undefined;
}

/** How many backgrounds the captcha draws from. */
export const BACKGROUND_COUNT = 12;

/** Draws the captcha's background set, with a library brush font when there is one. */
export async function createBackgroundSet(db: Db, storage: Storage): Promise<BackgroundSet> {
  return new BackgroundSet(BACKGROUND_COUNT, await loadBrushFont(db, storage));
}
