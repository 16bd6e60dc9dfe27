import { eq } from 'drizzle-orm';
import type {
  CharacterSuggestion,
  FoundGlyphs,
  GlyphBox,
  IdentifyCandidate,
  IdentifyResult,
} from '../../../contract/identify.ts';
import { db } from '../../db/client.ts';
import { fontFamilies, fonts } from '../../db/schema/index.ts';
import { log } from '../../log.ts';
import type { ToolClient } from '../clients.ts';
import { toolsPool, userFacing } from '../runtime.ts';
import { findPicture } from './pictures.ts';
import type { MatchRequestBody, PictureViewBody } from './requests.ts';
import type { FaceFile, PictureRef } from './tasks.ts';

// Font identification (SPEC §1 unidentified-font tool, §7 workflow task 125): glyphs found in an
// uploaded picture, characters suggested for them, and the library's faces ranked against them.
// The work runs in a tools worker on the quick lane; the answer is given at once.

async function pictureRef(view: PictureViewBody): Promise<PictureRef> {
  return { key: await findPicture(view.pictureId), crop: view.crop, rotate: view.rotate };
}

/** Task 125: the glyphs of a picture with suggested characters. */
export async function findPictureGlyphs(view: PictureViewBody, client: ToolClient): Promise<FoundGlyphs> {
  const picture = await pictureRef(view);
  const found = await userFacing(
    toolsPool().run({ kind: 'unidentifiedGlyphs', picture }, { lane: 'quick', client: client.key, timeoutMs: 60_000 }),
  );
  const prepared = prepareCharacters(found).finally(() => preparing.delete(view.pictureId));
  preparing.set(view.pictureId, prepared);
  return found;
}

/** Characters being drawn ahead of a comparison, by picture: the comparison waits for them. */
const preparing = new Map<string, Promise<void>>();
/** The longest a comparison waits for its preparation before drawing what is missing itself. */
const PREPARE_WAIT_MS = 15_000;

/**
 * Starts drawing the characters read from the glyphs into the index, in the background: opening
 * every library face the first time after a start takes seconds, which then pass while the person
 * checks the boxes instead of after they ask for the comparison. A failure only costs that time later.
 */
async function prepareCharacters(found: FoundGlyphs): Promise<void> {
  const characters = [
    ...new Set(found.lines.flatMap((line) => line.glyphs.flatMap((glyph) => glyph.suggestions[0]?.character ?? []))),
  ];
  if (characters.length === 0) return;
  try {
    const faces = (await libraryFaces()).map((face) => ({
      id: String(face.id),
      key: face.fileKey,
      sha256: face.sha256,
    }));
    await toolsPool().run({ kind: 'prepareCharacters', faces, characters }, { lane: 'background', timeoutMs: 120_000 });
  } catch (error) {
    log().warn({ err: error }, 'characters could not be prepared ahead of a comparison');
  }
}

/** Suggested characters for boxes the person drew or changed. */
export async function readCharacters(
  view: PictureViewBody & { boxes: GlyphBox[] },
  client: ToolClient,
): Promise<CharacterSuggestion[][]> {
  const picture = await pictureRef(view);
  return userFacing(
    toolsPool().run(
      { kind: 'readGlyphs', picture, boxes: view.boxes },
      { lane: 'quick', client: client.key, timeoutMs: 60_000 },
    ),
  );
}

/** The published library faces with their families. */
async function libraryFaces() {
  const handle = await db();
  return handle
    .select({
      id: fonts.id,
      gno: fonts.gno,
      styleName: fonts.styleName,
      weight: fonts.weight,
      fileKey: fonts.fileKey,
      sha256: fonts.sha256,
      familyGno: fontFamilies.gno,
      nameZh: fontFamilies.nameZh,
      nameEn: fontFamilies.nameEn,
      license: fontFamilies.license,
      commercialFree: fontFamilies.commercialFree,
    })
    .from(fonts)
    .innerJoin(fontFamilies, eq(fonts.familyId, fontFamilies.id))
    .where(eq(fontFamilies.published, true));
}

/** Compares the glyphs with every library face and answers the best candidates. */
export async function identifyFont(body: MatchRequestBody, client: ToolClient): Promise<IdentifyResult> {
  const started = performance.now();
  // Opening the library's faces twice at once (the preparation and this comparison in two workers)
  // would cost both; wait for the preparation instead, then read what it stored.
  const prepared = preparing.get(body.pictureId);
  if (prepared) await Promise.race([prepared, new Promise((resolve) => setTimeout(resolve, PREPARE_WAIT_MS).unref())]);
  const picture = await pictureRef(body);
  const library = await libraryFaces();
  const faces: FaceFile[] = library.map((face) => ({ id: String(face.id), key: face.fileKey, sha256: face.sha256 }));
  const result = await userFacing(
    toolsPool().run(
      {
        kind: 'matchGlyphs',
        picture,
        glyphs: body.glyphs.map((glyph) => ({
          box: glyph.box,
          ...(glyph.character ? { character: glyph.character } : {}),
        })),
        faces,
        limit: body.limit,
      },
      { lane: 'quick', client: client.key, timeoutMs: 120_000 },
    ),
  );
  const byId = new Map(library.map((face) => [String(face.id), face]));
  const candidates: IdentifyCandidate[] = [];
  for (const group of result.ranked) {
    const members = group.faceIds.flatMap((id) => byId.get(id) ?? []);
    const first = members[0];
    if (!first) continue;
    candidates.push({
      score: Math.round(Math.max(0, Math.min(1, group.score)) * 1000) / 10,
      covered: group.covered,
      family: {
        gno: first.familyGno,
        nameZh: first.nameZh,
        nameEn: first.nameEn,
        license: first.license,
        commercialFree: first.commercialFree,
      },
      faces: members
        .filter((face) => face.familyGno === first.familyGno)
        .map((face) => ({ fontId: face.id, gno: face.gno, styleName: face.styleName, weight: face.weight })),
      alike: members
        .filter((face) => face.familyGno !== first.familyGno)
        .map((face) => ({
          familyGno: face.familyGno,
          familyName: face.nameZh,
          fontId: face.id,
          styleName: face.styleName,
        })),
    });
    if (candidates.length >= body.limit) break;
  }
  return {
    glyphs: result.glyphs,
    sample: result.glyphs.map((glyph) => glyph.character).join(''),
    candidates,
    faces: library.length,
    elapsedMs: Math.round(performance.now() - started),
  };
}
