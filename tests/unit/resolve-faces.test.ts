import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fontFamilies } from '../../src/server/db/schema/index.ts';
import { resolveFaces } from '../../src/server/fonts/resolve.ts';
import { type LibraryFixture, openFixtureLibrary } from '../helpers/font-library.ts';

let library: LibraryFixture;
beforeAll(async () => {
  library = await openFixtureLibrary('resolve-faces');
});
afterAll(() => library.close());

describe('resolveFaces', () => {
  test('a child gno names its face, a family gno its regular face, in one call; unknown gnos are left out', async () => {
    const found = await resolveFaces(library.db, ['noto-sans-sc-700', 'noto-sans-sc', 'no-such-font']);
    expect(found.get('noto-sans-sc-700')?.face.weight).toBe(700);
    expect(found.get('noto-sans-sc')?.face.weight).toBe(400);
    expect(found.get('noto-sans-sc')?.family.gno).toBe('noto-sans-sc');
    expect(found.has('no-such-font')).toBe(false);
  });

  test('an unpublished family names nothing', async () => {
    await library.db.update(fontFamilies).set({ published: false }).where(eq(fontFamilies.gno, 'zcool-kuaile'));
    const found = await resolveFaces(library.db, ['zcool-kuaile', 'zcool-kuaile-400']);
    expect(found.size).toBe(0);
  });
});
