import fs from 'node:fs';
import path from 'node:path';
import type { SKRSContext2D } from '@napi-rs/canvas';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { thumbKeyOf } from '../../src/server/content/covers.ts';
import { saveArticle } from '../../src/server/content/editor/save.ts';
import { articles, fontGroups } from '../../src/server/db/schema/index.ts';
import { seedContent } from '../../src/server/db/seed/content-seed.ts';
import { acquireFace, type DrawingFace } from '../../src/server/engine/text/font-registry.ts';
import { loadCanvas } from '../../src/server/native.ts';
import { storage } from '../../src/server/storage/index.ts';
import { type ContentSuite, openContentSuite } from '../helpers/content.ts';

// Every seeded cover and badge (articles, albums, collections, cases, promotions, ads) is drawn, and
// every text the covers put on a canvas is checked character by character against the face that
// drew it: a character set in a face that lacks it is what a reader sees as a box.

const FONTS = path.resolve('tests/fixtures/fonts');

/** What was drawn: the text and the font it was drawn in. */
const drawn: Array<{ text: string; font: string }> = [];
/** The fixture faces by the family name the registry gives them. */
const faces = new Map<string, DrawingFace>();
let suite: ContentSuite;
let seeded: Awaited<ReturnType<typeof seedContent>>;

beforeAll(async () => {
  suite = await openContentSuite({ content: false });
  // The library's faces are the fixture files; the registry names a face by its bytes, so these are
  // the very families the covers draw in.
  for (const folder of fs.readdirSync(FONTS, { withFileTypes: true }).filter((entry) => entry.isDirectory())) {
    for (const file of fs.readdirSync(path.join(FONTS, folder.name))) {
      const face = acquireFace({ bytes: new Uint8Array(fs.readFileSync(path.join(FONTS, folder.name, file))) });
      faces.set(face.family, face);
    }
  }
  // The context class as the covers load it (the project's own copy of the native module).
  const prototype = Object.getPrototypeOf(loadCanvas().createCanvas(1, 1).getContext('2d')) as SKRSContext2D;
  const fillText = prototype.fillText;
  vi.spyOn(prototype, 'fillText').mockImplementation(function (
    this: SKRSContext2D,
    ...args: Parameters<typeof fillText>
  ) {
    drawn.push({ text: args[0], font: this.font });
    return fillText.apply(this, args);
  });
  seeded = await seedContent();
}, 300_000);
afterAll(async () => {
  vi.restoreAllMocks();
  for (const face of faces.values()) face.release();
  await suite.close();
});

/** The characters of what was drawn that the face drawing them lacks, as 'character in font'. */
function uncovered(): string[] {
  const wrong: string[] = [];
  for (const { text, font } of drawn) {
    // The context answers its font as '92px face-…' (quoted or not): the family follows the size.
    const family = font.replace(/^.*?[\d.]+px\s+/, '').replace(/"/g, '');
    const face = faces.get(family);
    for (const character of text) {
      if (/\s/u.test(character)) continue;
      if (!face?.has(character.codePointAt(0) as number)) wrong.push(`${character} in ${font}`);
    }
  }
  return [...new Set(wrong)];
}

describe('covers', () => {
  test('every seeded cover and badge sets each character in a face that has it', async () => {
    expect(seeded.warnings.filter((warning) => warning.includes('could not be seeded'))).toEqual([]);
    const covers = (await storage().list('covers')).filter((key) => !key.endsWith('-thumb.webp'));
    expect(covers.length).toBeGreaterThanOrEqual(70);
    expect(drawn.length).toBeGreaterThan(covers.length * 4);
    expect(uncovered()).toEqual([]);
  });

  test("an editor's save draws its cover under the same rule, leaving out what no face has", async () => {
    drawn.length = 0;
    const id = await saveArticle(undefined, {
      kind: 'news',
      title: '永和九年𠀀暮春之初',
      summary: '一段摘要',
      body: '正文',
    });
    const [row] = await suite.database.db.select().from(articles).where(eq(articles.id, id));
    expect(row?.coverKey).toMatch(/^covers\/news\/item-\d+-[0-9a-f]{12}\.webp$/);
    expect(await storage().stat(thumbKeyOf(row?.coverKey as string))).toBeDefined();
    expect(drawn.some(({ text }) => text.includes('永'))).toBe(true);
    // The character no face has is left out, not drawn in a fallback face.
    expect(drawn.some(({ text }) => text.includes('𠀀'))).toBe(false);
    expect(uncovered()).toEqual([]);
  });

  test('a start over a data folder whose covers were drawn under older rules draws them again', async () => {
    const [album] = await suite.database.db.select().from(fontGroups).where(eq(fontGroups.kind, 'album')).limit(1);
    const current = album?.coverKey as string;
    // As a cover drawn before the present rules: same slug, another hash.
    const stale = current.replace(/-[0-9a-f]{12}\.webp$/, '-000000000000.webp');
    await suite.database.db
      .update(fontGroups)
      .set({ coverKey: stale })
      .where(eq(fontGroups.id, album?.id as number));
    const again = await seedContent();
    expect(again.redrawn).toBe(1);
    const [after] = await suite.database.db
      .select()
      .from(fontGroups)
      .where(eq(fontGroups.id, album?.id as number));
    expect(after?.coverKey).toBe(current);
    // Covers already drawn under the present rules are left as they are.
    const third = await seedContent();
    expect(third.redrawn).toBe(0);
  }, 120_000);
});
