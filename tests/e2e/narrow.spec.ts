import type { APIRequestContext, Page } from '@playwright/test';
import { crawlSite, onePagePerRoute, SIGNED_IN_SCOPE } from '../helpers/crawl.ts';
import { expect, test } from '../helpers/e2e-test.ts';
import { sessionOverHttp } from '../helpers/http-account.ts';
import { MIN_TARGET, smallTargets } from '../helpers/touch-targets.ts';

// Phones: one page of every route, the visitor's and the signed-in ones, must fit the narrowest
// phones in use (320 px) and offer targets a finger can hit (44 × 44 px, at 375 px).

/** The editor whose session walks the signed-in pages (EDITOR_ACCOUNTS in playwright.config.ts). */
const WALKER = 'route-walker@example.com';

/**
 * Opens one page of every route at `width` and answers what `check` finds there, as `path: finding`.
 * The visitor's pages come from a crawl from home; then, signed in as an editor who has a custom-font
 * request and a submission of its own, the user centre's and the editors' pages.
 */
async function walkEveryRoute(
  page: Page,
  request: APIRequestContext,
  width: number,
  check: (page: Page) => Promise<string[]>,
): Promise<{ routes: number; found: string[] }> {
  const base = test.info().project.use.baseURL ?? '';
  const token = await sessionOverHttp(base, process.env['E2E_DATA_DIR'] ?? '', WALKER, 'Walk-every-route-1');
  const visitor = onePagePerRoute(await crawlSite(request));
  await page.setViewportSize({ width, height: 720 });
  const found: string[] = [];
  const visit = async (paths: string[]) => {
    for (const path of paths) {
      // Loaded and its client:load islands hydrated (a submission page keeps a request open, so the
      // network never goes idle there).
      await page.goto(path, { waitUntil: 'load' });
      await page.waitForFunction(() => !document.querySelector('astro-island[client="load"][ssr]'));
      // Judged as the visitor sees it: with the page's web fonts drawn, not in the fallback before them.
      await page.evaluate(async () => {
        await document.fonts.ready;
      });
      for (const finding of await check(page)) found.push(`${path}: ${finding}`);
    }
  };
  await visit(visitor);
  await page.context().addCookies([{ name: 'token', value: token, url: base }]);
  const signedIn = onePagePerRoute(await crawlSite(page.context().request, SIGNED_IN_SCOPE));
  expect(signedIn).toEqual(
    expect.arrayContaining(['/user/overview', '/editor', '/dingzhi/apply', '/user/dingzhi', '/user/submit']),
  );
  await visit(signedIn);
  return { routes: visitor.length + signedIn.length, found };
}

/** How far the page scrolls sideways, naming the widest element that sticks out; none when it fits. */
async function overflow(page: Page): Promise<string[]> {
  const found = await page.evaluate(() => {
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
  return found ? [found] : [];
}

// A table or a code block may scroll inside its own box; the page itself may not.
test('no page scrolls sideways at 320 px', async ({ page, request }) => {
  test.setTimeout(360_000);
  const { routes, found } = await walkEveryRoute(page, request, 320, overflow);
  expect(routes).toBeGreaterThan(70);
  expect(found).toEqual([]);
});

// The rule (tests/helpers/touch-targets.ts): every visible link, button, field, select, text area,
// role=button, summary and checkbox or radio label is at least 44 × 44 CSS px on a phone (WCAG 2.5.5).
// Links inside running text are exempt, as WCAG 2.5.8 exempts them; so are disabled controls.
test(`every control on every page is at least ${MIN_TARGET} px square on a phone`, async ({ page, request }) => {
  test.setTimeout(360_000);
  const { routes, found } = await walkEveryRoute(page, request, 375, smallTargets);
  expect(routes).toBeGreaterThan(70);
  expect(found).toEqual([]);
});
