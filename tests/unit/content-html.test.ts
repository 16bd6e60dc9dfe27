import { describe, expect, test } from 'vitest';
import { htmlToText, renderMarkdown, sanitizeArticleHtml } from '../../src/server/content/html.ts';

describe('sanitizeArticleHtml', () => {
  test.each([
    ['<p>前<script>alert(1)</script>后</p>', '<p>前后</p>'],
    ['<svg onload="alert(1)"><title>x</title><circle r="1"/></svg><p>文</p>', '<p>文</p>'],
    ['<p style="background:url(javascript:alert(1))">文</p>', '<p>文</p>'],
    ['<style>p{background:url(x)}</style><p>文</p>', '<p>文</p>'],
    ['<math><mi>x</mi></math><p>文</p>', '<p>文</p>'],
    ['<img src="x" onerror="alert(1)">', '<img src="x" loading="lazy" decoding="async" />'],
    ['<p onclick="alert(1)">文</p>', '<p>文</p>'],
    ['<iframe src="https://evil.example"></iframe><p>文</p>', '<p>文</p>'],
  ])('removes the unsafe parts of %s', (input, output) => {
    expect(sanitizeArticleHtml(input)).toBe(output);
  });

  test('drops javascript: links and marks links rel=noopener, external ones in a new tab', () => {
    expect(sanitizeArticleHtml('<a href="javascript:alert(1)">x</a>')).toBe('<a rel="noopener">x</a>');
    expect(sanitizeArticleHtml('<a href="/font">x</a>')).toBe('<a href="/font" rel="noopener">x</a>');
    expect(sanitizeArticleHtml('<a href="https://example.com" target="_self">x</a>')).toBe(
      '<a href="https://example.com" target="_blank" rel="noopener noreferrer">x</a>',
    );
  });

  test('keeps stored images lazy and refuses data: images', () => {
    expect(sanitizeArticleHtml('<img src="/files/covers/a.webp" alt="图">')).toBe(
      '<img src="/files/covers/a.webp" alt="图" loading="lazy" decoding="async" />',
    );
    expect(sanitizeArticleHtml('<p><img src="data:image/svg+xml;base64,PHN2Zz4=">文</p>')).toBe('<p>文</p>');
  });
});

describe('renderMarkdown', () => {
  test('renders GitHub-flavoured Markdown and demotes h1', () => {
    const html = renderMarkdown('# 标题\n\n**粗体**\n\n| 书体 | 朝代 |\n|---|---|\n| 楷书 | 唐 |');
    expect(html).toContain('<h2>标题</h2>');
    expect(html).toContain('<strong>粗体</strong>');
    expect(html).toContain('<td>楷书</td>');
  });

  test('sanitizes raw HTML inside Markdown', () => {
    expect(renderMarkdown('正文\n\n<script>alert(1)</script>\n\n<div onmouseover="x">块</div>')).not.toMatch(
      /script|onmouseover|<div/,
    );
  });
});

describe('htmlToText', () => {
  test('returns the text with entities decoded and blocks on their own lines', () => {
    expect(htmlToText('<p>甲 &amp; 乙</p><p>丙<script>x</script></p>')).toBe('甲 & 乙\n丙');
  });
});
