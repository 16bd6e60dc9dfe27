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
import { scriptNumber } from '../../db/seed/font-dicts.ts';
import { medianHeight, notInLibraryBelow } from '../../engine/identify/matcher.ts';
import type { ToolClient } from '../clients.ts';
import { admitIdentifyMatch, admitIdentifyRead } from '../limits.ts';
import { userFacing } from '../runtime.ts';
import { identifyHost } from './host.ts';
import { findPicture } from './pictures.ts';
import type { FaceFile } from './references.ts';
import type { MatchRequestBody, PictureViewBody } from './requests.ts';
import { formJudges, judgeSample, leadBySample, leadTiesBySample, sampleStanding } from './script-faces.ts';
import type { PictureRef } from './tasks.ts';

// Font identification (SPEC §1 unidentified-font tool, §7 workflow task 125): glyphs found in an
// uploaded picture, characters suggested for them, and the library's faces ranked against them.
// The work runs in the process's identification worker (host.ts); the answer is given at once.

async function pictureRef(view: PictureViewBody): Promise<PictureRef> {
  return { key: await findPicture(view.pictureId), crop: view.crop, rotate: view.rotate };
}

/** Task 125: the glyphs of a picture with suggested characters. */
export async function findPictureGlyphs(view: PictureViewBody, client: ToolClient): Promise<FoundGlyphs> {
  await admitIdentifyRead(client);
  const picture = await pictureRef(view);
  const library = await libraryFaces();
  const judges = faceFiles(formJudges(library));
  return userFacing(
    identifyHost().run(
      { kind: 'glyphs', picture, judges, faces: faceFiles(library) },
      { client: client.key, timeoutMs: 60_000 },
    ),
  );
}

/** Suggested characters for boxes the person drew or changed. */
export async function readCharacters(
  view: PictureViewBody & { boxes: GlyphBox[] },
  client: ToolClient,
): Promise<CharacterSuggestion[][]> {
  await admitIdentifyRead(client);
  const picture = await pictureRef(view);
  const library = await libraryFaces();
  const judges = faceFiles(formJudges(library));
  return userFacing(
    identifyHost().run(
      { kind: 'characters', picture, boxes: view.boxes, judges, faces: faceFiles(library) },
      { client: client.key, timeoutMs: 60_000 },
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
      script: fontFamilies.script,
    })
    .from(fonts)
    .innerJoin(fontFamilies, eq(fonts.familyId, fontFamilies.id))
    .where(eq(fontFamilies.published, true));
}

function faceFiles(library: Awaited<ReturnType<typeof libraryFaces>>): FaceFile[] {
  const judging = new Set(formJudges(library));
  return library.map((face) => ({
    id: String(face.id),
    key: face.fileKey,
    sha256: face.sha256,
    ...(judging.has(face) ? { judge: true } : {}),
  }));
}

/**
 * Has the identification worker prepare the references of the library's faces in the background
 * (the 8 105 characters of 通用规范汉字表 in every face), so that a comparison only looks them up.
 * Called once the site answers, and again when the library has grown.
 */
export async function prepareIdentification(): Promise<void> {
  identifyHost().prepare(faceFiles(await libraryFaces()));
}

/** Compares the glyphs with every library face and answers the best candidates. */
export async function identifyFont(body: MatchRequestBody, client: ToolClient): Promise<IdentifyResult> {
  await admitIdentifyMatch(client);
  const started = performance.now();
  const picture = await pictureRef(body);
  const library = await libraryFaces();
  const faces = faceFiles(library);
  identifyHost().refresh(faces);
  const result = await userFacing(
    identifyHost().run(
      {
        kind: 'match',
        picture,
        glyphs: body.glyphs.map((glyph) => ({
          box: glyph.box,
          ...(glyph.character ? { character: glyph.character } : {}),
        })),
        faces,
        judges: faceFiles(formJudges(library)),
        limit: body.limit,
      },
      { client: client.key, timeoutMs: 120_000 },
    ),
  );
  const byId = new Map(library.map((face) => [String(face.id), face]));
  // Faces that draw the sample alike (思源黑体 SC, TC, HK and JP share most glyphs) are led by a
  // family of the sample's script: a picture of simplified characters is most likely set in the SC face.
  const characters = result.glyphs.map((glyph) => glyph.character);
  const judged = judgeSample(characters);
  const script = scriptNumber(judged.script);
  const traditional = judged.traditional;
  const led = result.ranked.flatMap((group) => {
    const members = leadBySample(
      group.faceIds.flatMap((id) => byId.get(id) ?? []),
      script,
      traditional,
    );
    return members.length ? [{ ...group, members }] : [];
  });
  // Candidates within a hair's breadth of the best (思源宋体 SC against TC) are led by the one whose
  // face suits the script the sample shows, when it shows one.
  const shown = judged.shown ? scriptNumber(judged.shown) : null;
  const ordered = shown
    ? leadTiesBySample(led, (group) =>
        sampleStanding(group.members[0] as (typeof group.members)[number], shown, traditional),
      )
    : led;
  const candidates: IdentifyCandidate[] = [];
  for (const group of ordered) {
    const members = group.members;
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
          weight: face.weight,
        })),
    });
    if (candidates.length >= body.limit) break;
  }
  return {
    glyphs: result.glyphs,
    sample: result.glyphs.map((glyph) => glyph.character).join(''),
    inLibrary:
      (result.ranked[0]?.score ?? 0) >=
      notInLibraryBelow(medianHeight(result.glyphs.filter((glyph) => glyph.character).map((glyph) => glyph.box))),
    candidates,
    faces: library.length,
    elapsedMs: Math.round(performance.now() - started),
  };
}
