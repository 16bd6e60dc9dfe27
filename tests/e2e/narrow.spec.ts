import { crawlSite, onePagePerRoute } from '../helpers/crawl.ts';
import { expect, test } from '../helpers/e2e-test.ts';

// The narrowest phones in use are 320 px wide: one page of every route a visitor can reach must fit
// without scrolling sideways (a table or a code block may scroll inside its own box).
test('no page scrolls sideways at 320 px', async ({ page, request }) => {
  test.setTimeout(240_000);
  const pages = onePagePerRoute(await crawlSite(request));
  await page.setViewportSize({ width: 320, height: 640 });
  const wide: string[] = [];
  for (const path of pages) {
    await page.goto(path, { waitUntil: 'networkidle' });
    const overflow = await page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      if (document.documentElement.scrollWidth <= width) return null;
      // Name the widest element that sticks out, so the failure says what to fix.
      let culprit = '';
      let widest = width;
      for (const element of document.body.querySelectorAll('*')) {
        const right = element.getBoundingClientRect().right;
        if (right > widest + 1) {
          widest = right;
          culprit = `${element.tagName.toLowerCase()}.${[...element.classList].join('.')}`;
        }
      }
      return `${document.documentElement.scrollWidth} px (${culprit})`;
    });
    if (overflow) wide.push(`${path}: ${overflow}`);
  }
  expect(pages.length).toBeGreaterThan(25);
  expect(wide).toEqual([]);
});
