import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { getArticle } from '../../src/server/content/articles.ts';
import { saveAlbum, saveArticle, setAlbumStatus, setArticleStatus } from '../../src/server/content/editor/save.ts';
import { getFontGroup } from '../../src/server/content/groups.ts';
import { articles, fontGroups } from '../../src/server/db/schema/index.ts';
import { type ContentSuite, openContentSuite } from '../helpers/content.ts';

let suite: ContentSuite;

beforeAll(async () => {
  suite = await openContentSuite();
});
afterAll(async () => suite.close());

describe('saveArticle', () => {
  test('creates a draft that readers see only once it is published', async () => {
    const id = await saveArticle(undefined, {
      kind: 'zixun',
      title: '如何给标题选字重',
      summary: '标题与正文的字重搭配。',
      body: '正文 **加粗**\n\n<img src=x onerror=alert(1)><svg onload=alert(1)></svg>',
      tag: '排版',
    });
    expect(await getArticle(id, ['zixun'])).toBeUndefined();
    await setArticleStatus(id, 'published');
    const published = await getArticle(id, ['zixun']);
    expect(published).toMatchObject({ title: '如何给标题选字重', tagName: '排版' });
    expect(published?.bodyHtml).toContain('<strong>加粗</strong>');
    expect(published?.bodyHtml).not.toMatch(/onerror|<svg|onload/);
    expect(published?.publishedAt).not.toBeNull();
    await setArticleStatus(id, 'draft');
    expect(await getArticle(id, ['zixun'])).toBeUndefined();
  });

  test('draws a new cover when the title changes, keeping the seeded slug', async () => {
    const [row] = await suite.database.db.select().from(articles).where(eq(articles.slug, 'baike/kaishu'));
    const id = row?.id ?? 0;
    await saveArticle(id, {
      kind: 'baike',
      title: '楷书（修订）',
      summary: row?.summary ?? '',
      body: '修订',
      tag: '楷书',
    });
    const [after] = await suite.database.db.select().from(articles).where(eq(articles.id, id));
    expect(after?.coverKey).toMatch(/^covers\/baike\/kaishu-[0-9a-f]{12}\.webp$/);
    expect(after?.coverKey).not.toBe(row?.coverKey);
    expect(after?.status).toBe('published');
  });

  test('refuses a video address that is not a web or stored file', async () => {
    await expect(
      saveArticle(undefined, { kind: 'news', title: '视频', summary: '', body: '', videoUrl: 'javascript:alert(1)' }),
    ).rejects.toThrow('视频地址');
  });
});

describe('saveAlbum', () => {
  test('creates an album with its fonts in order and publishes it', async () => {
    const id = await saveAlbum(undefined, {
      title: '编辑的专辑',
      summary: '',
      body: '介绍',
      fonts: ['zcool-kuaile', 'noto-sans-sc'],
    });
    await setAlbumStatus(id, 'published');
    const album = await getFontGroup('album', id);
    expect(album?.fonts.map((font) => font.fontGNo)).toEqual(['zcool-kuaile', 'noto-sans-sc']);
    const [row] = await suite.database.db
      .select()
      .from(fontGroups)
      .where(and(eq(fontGroups.kind, 'album'), eq(fontGroups.id, id)));
    expect(row?.coverKey).toMatch(new RegExp(`^covers/album/item-${id}-[0-9a-f]{12}\\.webp$`));
  });

  test('refuses fonts that are not in the library', async () => {
    await expect(saveAlbum(undefined, { title: '错', summary: '', body: '', fonts: ['no-such-font'] })).rejects.toThrow(
      '字体库里没有这些字体：no-such-font',
    );
  });
});
