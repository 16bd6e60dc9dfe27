import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FoundGlyphs } from '../../src/contract/identify.ts';
import { identifyHost } from '../../src/server/tools/identify/host.ts';
import { prepareIdentification } from '../../src/server/tools/identify/service.ts';
import { call, json, type LibraryFixture } from '../helpers/font-library.ts';
import { seedIdentifyFixtures, uploadIdentifyPicture } from '../helpers/identify.ts';
import { closeToolsApp, openToolsApp } from '../helpers/tools.ts';

// Reading a picture of Japanese and Traditional forms through the API: the reader answers the
// Simplified form (归 for 帰, 与 for 與), and the library's judging face (Noto Serif JP, a subset in
// tests/fixtures/identify-fonts/) must put the form the glyph shows first, both when the page asks
// for a picture's glyphs and when it reads boxes the person drew. Forms the reader lacks and reads as
// a character with no form in common (駅 as 默) are found by shape among the judging faces'
// drawings, which the worker prepares in the background as the site does after a start.

let library: LibraryFixture;
let app: Hono;

beforeAll(async () => {
  ({ library, app } = await openToolsApp('identify-forms'));
  await seedIdentifyFixtures(['noto-serif-jp']);
});
afterAll(async () => {
  await closeToolsApp(library);
});

describe('reading the forms a picture shows through the API', () => {
  test('suggests the Japanese and Traditional forms first, the Simplified reading after them', async () => {
    const text = '帰與';
    const pictureId = await uploadIdentifyPicture(app, 'noto-serif-jp/NotoSerifJP_400Regular.ttf', text, {
      size: 48,
      spacing: 0.2,
    });

    const found = await call<FoundGlyphs>(app, '/tools/api/identify/glyphs', json('POST', { pictureId }));
    expect(found.status).toBe(200);
    const glyphs = found.data.lines.flatMap((line) => line.glyphs);
    expect(glyphs.map((glyph) => glyph.suggestions[0]?.character).join('')).toBe(text);
    expect(glyphs.map((glyph) => glyph.suggestions[1]?.character).join('')).toBe('归与');

    const read = await call<{ suggestions: { character: string }[][] }>(
      app,
      '/tools/api/identify/characters',
      json('POST', { pictureId, boxes: glyphs.map((glyph) => glyph.box) }),
    );
    expect(read.status).toBe(200);
    expect(read.data.suggestions.map((suggestions) => suggestions[0]?.character).join('')).toBe(text);
  });

  test('finds by shape, once the references are prepared, the forms the reader reads as unrelated characters', async () => {
    await prepareIdentification();
    await identifyHost().prepared();
    const text = '駅敵異観';
    const pictureId = await uploadIdentifyPicture(app, 'noto-serif-jp/NotoSerifJP_400Regular.ttf', text, {
      size: 48,
      spacing: 0.2,
    });
    const found = await call<FoundGlyphs>(app, '/tools/api/identify/glyphs', json('POST', { pictureId }));
    expect(found.status).toBe(200);
    const read = found.data.lines.flatMap((line) => line.glyphs).map((glyph) => glyph.suggestions[0]?.character);
    expect(read.join('')).toBe(text);
  }, 240_000);
});
