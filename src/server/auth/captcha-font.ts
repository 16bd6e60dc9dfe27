import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { fontFamilies, fonts } from '../db/schema/index.ts';
import { acquireFace, type DrawingFace } from '../engine/text/font-registry.ts';
import { storedFaceSource } from '../fonts/drawing-faces.ts';
import { log } from '../log.ts';
import type { Storage } from '../storage/index.ts';
import { BackgroundSet, drawBackgrounds } from './captcha-image.ts';

// Brush and calligraphic families of the library, best first; any of them gives the inscriptions
// on the captcha backgrounds the look of a hanging scroll. Noto Serif SC comes last, for any
// character the brush lacks.
const BRUSH_FAMILIES = ['ma-shan-zheng', 'zhi-mang-xing', 'liu-jian-mao-cao', 'zcool-xiaowei', 'noto-serif-sc'];
const FALLBACK_FAMILY = 'noto-serif-sc';
// Library faces are plain TTF files; a bucket's copy is read whole, never expanded.
const MAX_FONT_BYTES = 64 << 20;

/**
 * Takes the library's best brush face and the serif fallback from the font registry, or none when
 * the library has neither yet (the backgrounds then use painted brush strokes instead of characters).
 */
export async function loadBrushFaces(db: Db, storage: Storage): Promise<DrawingFace[]> {
  const faces: DrawingFace[] = [];
  try {
    const rows = await db
      .select({ gno: fontFamilies.gno, fileKey: fonts.fileKey, sha256: fonts.sha256, weight: fonts.weight })
      .from(fonts)
      .innerJoin(fontFamilies, eq(fontFamilies.id, fonts.familyId))
      .where(inArray(fontFamilies.gno, BRUSH_FAMILIES));
    rows.sort((a, b) => BRUSH_FAMILIES.indexOf(a.gno) - BRUSH_FAMILIES.indexOf(b.gno) || a.weight - b.weight);
    const brush = rows.find((row) => row.gno !== FALLBACK_FAMILY) ?? rows[0];
    const fallback = rows.find((row) => row.gno === FALLBACK_FAMILY && row.weight >= 400) ?? rows.at(-1);
    for (const row of new Set([brush, fallback])) {
      if (!row) continue;
      const source = { key: row.fileKey, faceIndex: 0, maxSfntBytes: MAX_FONT_BYTES, sha256: row.sha256 };
      faces.push(acquireFace(await storedFaceSource(source, storage)));
    }
  } catch (error) {
    log().warn({ err: error }, 'Could not load a brush font for the captcha; drawing strokes instead');
  }
  return faces;
}

/** How many backgrounds the captcha draws from. */
export const BACKGROUND_COUNT = 12;

/** Draws the captcha's background set, with a library brush font when there is one. */
export async function createBackgroundSet(db: Db, storage: Storage): Promise<BackgroundSet> {
  const faces = await loadBrushFaces(db, storage);
  try {
    return new BackgroundSet(await drawBackgrounds(BACKGROUND_COUNT, faces));
  } finally {
    // The backgrounds are drawn: the faces go back to the registry.
    for (const face of faces) face.release();
  }
}
