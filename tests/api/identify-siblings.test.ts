import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FoundGlyphs, IdentifyResult } from '../../src/contract/identify.ts';
import { call, json, type LibraryFixture } from '../helpers/font-library.ts';
import { seedIdentifyFixtures, uploadIdentifyPicture } from '../helpers/identify.ts';
import { closeToolsApp, openToolsApp } from '../helpers/tools.ts';

// Identification through the API on a library holding two faces of one skeleton, M+ 1p with square
// stroke ends and M+ Rounded 1c with round ones (subsets in tests/fixtures/identify-fonts/): a clean
// picture of either must be answered with that face first, not its sibling, and a picture of a
// gothic the library lacks (Zen Maru Gothic, Zen Kaku Gothic New) must be said to be none of them.

let library: LibraryFixture;
let app: Hono;

beforeAll(async () => {
  ({ library, app } = await openToolsApp('identify-siblings'));
  await seedIdentifyFixtures(['m-plus-1p', 'm-plus-rounded-1c']);
});
afterAll(async () => {
  await closeToolsApp(library);
});

/** Uploads a clean picture of `text` drawn in a fixture face and compares it with the library, characters confirmed. */
async function identify(file: string, text: string, size: number): Promise<IdentifyResult> {
  const pictureId = await uploadIdentifyPicture(app, file, text, { size, spacing: 0.1 });
  const found = await call<FoundGlyphs>(app, '/tools/api/identify/glyphs', json('POST', { pictureId }));
  const boxes = found.data.lines.flatMap((line) => line.glyphs.map((glyph) => glyph.box));
  expect(boxes).toHaveLength([...text].length);
  const answer = await call<IdentifyResult>(
    app,
    '/tools/api/identify/match',
    json('POST', { pictureId, glyphs: boxes.map((box, i) => ({ box, character: [...text][i] })) }),
  );
  expect(answer.status).toBe(200);
  return answer.data;
}

describe('identification of close siblings through the API', () => {
  test.each([
    ['m-plus-rounded-1c', 'm-plus-rounded-1c/MPLUSRounded1c_400Regular.ttf', '永和九年', 48],
    ['m-plus-1p', 'm-plus-1p/MPLUS1p_400Regular.ttf', '国語書道', 48],
    ['m-plus-1p', 'm-plus-1p/MPLUS1p_400Regular.ttf', '国語書道', 32],
    ['m-plus-rounded-1c', 'm-plus-rounded-1c/MPLUSRounded1c_400Regular.ttf', '国語書道', 32],
  ])('answers %s first for a clean picture drawn in it (%s, %s, %i px)', async (gno, file, text, size) => {
    const answer = await identify(file, text, size);
    expect(answer.inLibrary).toBe(true);
    expect(answer.candidates[0]?.family.gno).toBe(gno);
    // The sibling is a candidate of its own, after it: their drawings differ.
    expect(answer.candidates[1]?.family.gno).toMatch(/^m-plus-/);
    expect(answer.candidates[0]?.alike).toEqual([]);
  });

  test.each([
    ['Zen Maru Gothic, a round gothic like M+ Rounded 1c', 'zen-maru-gothic/ZenMaruGothic_400Regular.ttf'],
    ['Zen Kaku Gothic New, a square gothic like M+ 1p', 'zen-kaku-gothic-new/ZenKakuGothicNew_400Regular.ttf'],
  ])('says the library has no such font for %s, and offers the closest', async (_name, file) => {
    const answer = await identify(file, '国語書道', 32);
    expect(answer.inLibrary).toBe(false);
    expect(answer.candidates[0]?.family.gno).toMatch(/^m-plus-/);
  });
});
