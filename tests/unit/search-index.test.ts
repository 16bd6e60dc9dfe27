import { describe, expect, test } from 'vitest';
import { highlight, SearchIndex, tokenize } from '../../src/server/content/search-index.ts';

function doc(id: number, title: string, summary: string, body: string) {
  return { type: 'baike' as const, id, url: `/baike/${id}`, title, summary, body };
}

describe('tokenize', () => {
  test('segments Chinese into words and drops punctuation and stop words', () => {
    expect(tokenize('王羲之的兰亭序，天下第一行书')).toEqual(expect.arrayContaining(['王羲之', '兰亭序', '行书']));
    expect(tokenize('王羲之的兰亭序')).not.toContain('的');
    expect(tokenize('，。！')).toEqual([]);
  });
});

describe('SearchIndex', () => {
  const index = new SearchIndex();
  index.add(doc(1, '颜真卿', '唐代书法家', '颜真卿的楷书端庄雄伟，代表作有多宝塔碑。'));
  index.add(doc(2, '楷书', '方正的书体', '楷书由隶书演变而来，颜真卿、柳公权都是楷书大家。'));
  index.add(doc(3, '隶书', '汉代的书体', '隶书的笔画有蚕头燕尾。'));
  index.add(doc(4, '文房四宝', '笔墨纸砚', '写楷书要用好笔，一支笔可以写很久。'));

  test('ranks a title match above body mentions', () => {
    const hits = index.search('楷书');
    expect(hits.map((hit) => hit.doc.id)).toEqual([2, 1, 4]);
  });

  test('ranks documents holding every query word above those holding some', () => {
    const hits = index.search('颜真卿楷书');
    expect(hits[0]?.doc.id).toBe(1);
    expect(hits[1]?.doc.id).toBe(2);
  });

  test('finds a word written inside a longer phrase', () => {
    expect(index.search('蚕头燕尾').map((hit) => hit.doc.id)).toEqual([3]);
  });

  test('highlights matches in title and snippet and escapes the rest', () => {
    const [hit] = index.search('隶书');
    expect(hit?.doc.id).toBe(3);
    expect(hit?.titleHtml).toBe('<mark>隶书</mark>');
    expect(hit?.snippetHtml).toContain('<mark>隶书</mark>的笔画');
  });

  test('returns nothing for words no document has', () => {
    expect(index.search('电脑')).toEqual([]);
  });

  test('suggests indexed words by prefix', () => {
    expect(index.termsStartingWith('颜', 5)).toContain('颜真卿');
  });
});

describe('highlight', () => {
  test('escapes markup around the marks', () => {
    expect(highlight('<b>楷书</b>', ['楷书'])).toBe('&#60;b&#62;<mark>楷书</mark>&#60;/b&#62;');
  });
});
