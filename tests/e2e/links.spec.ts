import { expect, test } from '@playwright/test';

// Every internal link on every page a visitor can reach answers: a crawl from the home page over
// the server-rendered HTML (what a reader without scripts and a search engine see).
test('no page links to an address that does not answer', async ({ request }) => {
  test.setTimeout(180_000);
  const seen = new Set<string>(['/']);
  const queue = ['/'];
  const broken: string[] = [];
  const linkedFrom = new Map<string, string>();
  let pages = 0;
  while (queue.length > 0) {
    const path = queue.shift() as string;
    const response = await request.get(path, { maxRedirects: 0 });
    const status = response.status();
    // A protected page sends visitors to log in; that is an answer, not a broken link.
    if (status >= 400) {
      broken.push(`${path} → ${status} (linked from ${linkedFrom.get(path) ?? 'the start'})`);
      continue;
    }
    const type = response.headers()['content-type'] ?? '';
    if (status !== 200 || !type.includes('text/html')) continue;
    pages++;
    const html = await response.text();
    for (const match of html.matchAll(/<a\s[^>]*href="([^"]+)"/g)) {
      const href = (match[1] ?? '').replace(/&amp;/g, '&');
      if (!href.startsWith('/') || href.startsWith('//')) continue;
      const url = new URL(href, 'http://site');
      // Downloads and files are checked by their own suites; pages are what a reader follows.
      if (/^\/(files|webfont|tools\/api|web\/api|api)\//.test(url.pathname)) continue;
      const target = url.pathname + url.search;
      if (seen.has(target)) continue;
      seen.add(target);
      linkedFrom.set(target, path);
      queue.push(target);
    }
  }
  expect(broken).toEqual([]);
  expect(pages).toBeGreaterThan(60);
});
