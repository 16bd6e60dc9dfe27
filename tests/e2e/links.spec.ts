import { crawlSite } from '../helpers/crawl.ts';
import { expect, test } from '../helpers/e2e-test.ts';

// Every internal link on every page a visitor can reach answers: a crawl from the home page over
// the server-rendered HTML (what a reader without scripts and a search engine see).
test('no page links to an address that does not answer', async ({ request }) => {
  const pages = await crawlSite(request);
  // A protected page sends visitors to log in (302); that is an answer, not a broken link.
  const broken = pages
    .filter((page) => page.status >= 400)
    .map((page) => `${page.path} → ${page.status} (linked from ${page.linkedFrom ?? 'the start'})`);
  expect(broken).toEqual([]);
  expect(pages.filter((page) => page.html).length).toBeGreaterThan(60);
});
