import { and, eq, inArray, or } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { fontFamilies, fonts } from '../db/schema/index.ts';
import { pickDefaultFace } from './faces.ts';

/** A published face and the family it belongs to. */
export interface ResolvedFace {
  face: typeof fonts.$inferSelect;
  family: typeof fontFamilies.$inferSelect;
}

/**
 * The published face each gno names: a child font's own gno names that face, a family's gno names
 * the face that stands for the family (upright 400, else the nearest weight). Unknown and
 * unpublished gnos are left out of the answer. One query for any number of gnos.
 */
export async function resolveFaces(db: Db, gnos: readonly string[]): Promise<Map<string, ResolvedFace>> {
  const found = new Map<string, ResolvedFace>();
  if (gnos.length === 0) return found;
  const wanted = [...new Set(gnos)];
  const rows = await db
    .select({ face: fonts, family: fontFamilies })
    .from(fonts)
    .innerJoin(fontFamilies, eq(fonts.familyId, fontFamilies.id))
    .where(and(eq(fontFamilies.published, true), or(inArray(fonts.gno, wanted), inArray(fontFamilies.gno, wanted))));
  for (const row of rows) if (wanted.includes(row.face.gno)) found.set(row.face.gno, row);
  for (const gno of wanted) {
    if (found.has(gno)) continue;
    const members = rows.filter((row) => row.family.gno === gno);
    const regular = pickDefaultFace(members.map((row) => row.face));
    const row = members.find((member) => member.face === regular);
    if (row) found.set(gno, row);
  }
  return found;
}
