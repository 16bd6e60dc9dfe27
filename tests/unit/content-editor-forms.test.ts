import { describe, expect, test } from 'vitest';
import { parseAlbumForm, parseArticleForm, parseCaseForm } from '../../src/server/content/editor/forms.ts';

function form(values: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(values)) data.set(key, value);
  return data;
}

describe('parseArticleForm', () => {
  test('reads a form that leaves optional fields out', () => {
    const parsed = parseArticleForm(form({ kind: 'baike', title: ' 楷书 ', body: '正文' }));
    expect(parsed).toEqual({
      ok: true,
      value: {
        kind: 'baike',
        title: '楷书',
        summary: '',
        body: '正文',
        author: undefined,
        source: undefined,
        tag: undefined,
        videoUrl: undefined,
      },
    });
  });

  test('names each wrong field in Chinese', () => {
    const parsed = parseArticleForm(form({ kind: 'blog', title: '', summary: '字'.repeat(301) }));
    expect(parsed).toEqual({
      ok: false,
      errors: { kind: '请选择文章类型', title: '请填写标题', summary: '摘要最多 300 个字' },
    });
  });
});

describe('parseAlbumForm', () => {
  test('splits the font list on spaces, commas and new lines', () => {
    const parsed = parseAlbumForm(form({ title: '专辑', fonts: 'noto-sans-sc，ma-shan-zheng\nzcool-kuaile' }));
    expect(parsed.ok && parsed.value.fonts).toEqual(['noto-sans-sc', 'ma-shan-zheng', 'zcool-kuaile']);
    expect(parseAlbumForm(form({ title: '专辑', fonts: 'Bad Font!' })).ok).toBe(false);
  });
});

describe('parseCaseForm', () => {
  test('keeps the client and font when given', () => {
    const parsed = parseCaseForm(form({ title: '案例', client: '某品牌', font: 'ma-shan-zheng' }));
    expect(parsed.ok && parsed.value).toMatchObject({ client: '某品牌', font: 'ma-shan-zheng' });
  });
});
