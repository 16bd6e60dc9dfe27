import { asc, desc, eq } from 'drizzle-orm';
import { COVERAGE_MAX_CHARACTERS, type FontCoverageAnswer, type FontCoverageFamily } from '../../contract/fonts.ts';
import { searchIndexVersion } from '../content/search-index.ts';
import { db as configuredDb, type Db } from '../db/client.ts';
import { fontFamilies, fonts } from '../db/schema/index.ts';
import { badRequest } from '../http/envelope.ts';
import { log } from '../log.ts';
import { CoverageIndex, distinctCharacters } from './coverage-index.ts';
import { fontCodePoints } from './glyphs.ts';

// The 「包含这些字」 filter: which published families have every character of a text. The index of
// every face's characters lives in memory (coverage-index.ts) and is rebuilt when the library's
// faces change; the cmaps it is built from are cached in storage by fontCodePoints.

interface BuiltCoverage {
  /** The faces the index was built from (gno:sha256, in order), to tell whether it is still current. */
  fingerprint: string;
  /** The content version at which the fingerprint was last compared with the database. */
  checkedAt: number;
  index: CoverageIndex;
}

const SLOT = Symbol.for('font-alliance.coverage-index');
type Slot = { [SLOT]?: { built?: BuiltCoverage | undefined; building?: Promise<BuiltCoverage> | undefined } };

async function publishedFaces(db: Db) {
  return db
    .select({ family: fontFamilies.gno, gno: fonts.gno, sha256: fonts.sha256, fileKey: fonts.fileKey })
    .from(fonts)
    .innerJoin(fontFamilies, eq(fonts.familyId, fontFamilies.id))
    .where(eq(fontFamilies.published, true))
    .orderBy(asc(fontFamilies.id), asc(fonts.id));
}

async function build(db: Db, version: number): Promise<BuiltCoverage> {
  const started = performance.now();
  const faces = await publishedFaces(db);
  const index = new CoverageIndex(faces.length);
  for (const [position, face] of faces.entries()) {
    // One face's cmap at a time: only the bit table stays in memory.
    index.setFace(position, { family: face.family, codePoints: await fontCodePoints(face) });
  }
  log().info(
    { faces: faces.length, kb: Math.round(index.byteSize / 1024), ms: Math.round(performance.now() - started) },
    'coverage index built',
  );
  return { fingerprint: fingerprintOf(faces), checkedAt: version, index };
}

function fingerprintOf(faces: Array<{ gno: string; sha256: string }>): string {
  return faces.map((face) => `${face.gno}:${face.sha256}`).join(',');
}

/**
 * The coverage index of the published faces. After a content change the faces are compared with
 * the ones it was built from, and only a changed library rebuilds it (from the cmaps cached in
 * storage, so a rebuild reads small files); a question waits for that rebuild, so that no family
 * is left out of an answer.
 */
export async function coverageIndex(database?: Db): Promise<CoverageIndex> {
  const holder = globalThis as Slot;
  holder[SLOT] ??= {};
  const slot = holder[SLOT];
  const version = searchIndexVersion();
  const built = slot.built;
  if (built && built.checkedAt === version) return built.index;
  const db = database ?? (await configuredDb());
  if (built && !slot.building) {
    const fingerprint = fingerprintOf(await publishedFaces(db));
    if (fingerprint === built.fingerprint) {
      built.checkedAt = version;
      return built.index;
    }
  }
  slot.building ??= build(db, version)
    .then((fresh) => {
      slot.built = fresh;
      return fresh;
    })
    .finally(() => {
      slot.building = undefined;
    });
  return (await slot.building).index;
}

/** Starts building the index now, so that the first question does not wait for it; errors are logged. */
export function warmCoverageIndex(database?: Db): void {
  coverageIndex(database).catch((error: unknown) => log().warn({ err: error }, 'coverage index could not be built'));
}

/** The published families in the library's own order (detail.ts: most downloaded first). */
async function libraryOrder(db: Db): Promise<Map<string, number>> {
  const rows = await db
    .select({ gno: fontFamilies.gno })
    .from(fontFamilies)
    .where(eq(fontFamilies.published, true))
    .orderBy(desc(fontFamilies.downloads), asc(fontFamilies.category), asc(fontFamilies.script), asc(fontFamilies.id));
  return new Map(rows.map((row, position) => [row.gno, position]));
}

/** The characters a coverage question checks, or a 400 in the words the filter shows. */
export function charactersToCheck(text: string): number[] {
  const characters = distinctCharacters(text);
  if (characters.length === 0) throw badRequest('请输入要检查的字');
  if (characters.length > COVERAGE_MAX_CHARACTERS) throw badRequest(`一次最多检查 ${COVERAGE_MAX_CHARACTERS} 个字`);
  return characters;
}

/**
 * POST /web/api/font/coverage: for every published family, how many of the text's distinct
 * characters (whitespace left out) its best face lacks and the first of them, fewest lacking first,
 * then in the library's own order.
 */
export async function fontCoverage(text: string, database?: Db): Promise<FontCoverageAnswer> {
  const characters = charactersToCheck(text);
  const db = database ?? (await configuredDb());
  const [index, order] = await Promise.all([coverageIndex(db), libraryOrder(db)]);
  const families: FontCoverageFamily[] = index
    .query(characters)
    .filter((family) => order.has(family.family))
    .map((family) => ({
      fontGNo: family.family,
      lacks: family.lacks,
      missing: String.fromCodePoint(...family.missing),
    }));
  const rank = (gno: string) => order.get(gno) ?? Number.MAX_SAFE_INTEGER;
  families.sort((a, b) => a.lacks - b.lacks || rank(a.fontGNo) - rank(b.fontGNo));
  return { checked: characters.length, families };
}
