import type { APIRequestContext, Page } from '@playwright/test';
import { crawlSite, onePagePerRoute, SIGNED_IN_SCOPE } from './crawl.ts';
import { expect, test } from './e2e-test.ts';
import { PLAIN_NAMES, type RecordNames, sessionOverHttp } from './http-account.ts';

// One page of every route, the visitor's and the signed-in ones, opened in Chromium as a person opens
// it, for the checks that judge every page (phones' widths and targets, the security policy).

/** Who walks the signed-in pages: an editor (EDITOR_ACCOUNTS in playwright.config.ts) and what its records are called. */
export interface Walker {
  email: string;
  password: string;
  names?: RecordNames;
  /** Pages no link leads to that the walk opens too (a long search, a long sample). */
  extraPaths?: readonly string[];
}

/** The editor whose session walks the signed-in pages, with records named as people name them. */
export const ROUTE_WALKER: Walker = { email: 'route-walker@example.com', password: 'Walk-every-route-1' };

/**
 * Opens one page of every route and calls `check` on each once it is as a visitor sees it (loaded, its
 * client:load islands hydrated, its web fonts drawn), collecting `path: finding`. The visitor's pages come
 * from a crawl from home; then, signed in as `walker` (who has a custom-font request and a submission of its
 * own), the user centre's and the editors' pages. Answers how many routes were walked and what was found.
 */
export async function walkEveryRoute(
  page: Page,
  request: APIRequestContext,
  walker: Walker,
  check: (page: Page) => Promise<string[]>,
): Promise<{ routes: number; found: string[] }> {
  const base = test.info().project.use.baseURL ?? '';
  const token = await sessionOverHttp(
    base,
    process.env['E2E_DATA_DIR'] ?? '',
    walker.email,
    walker.password,
    '10.99.0.1',
    walker.names ?? PLAIN_NAMES,
  );
  const visitor = [...onePagePerRoute(await crawlSite(request)), ...(walker.extraPaths ?? [])];
  const found: string[] = [];
  const visit = async (paths: string[]) => {
    for (const path of paths) {
      // A submission page keeps a request open, so the network never goes idle there: wait for the islands.
      await page.goto(path, { waitUntil: 'load' });
      await page.waitForFunction(() => !document.querySelector('astro-island[client="load"][ssr]'));
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

/** How far the page scrolls sideways, naming the widest element that sticks out; nothing when it fits. */
export async function overflow(page: Page): Promise<string[]> {
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

/** Lays the page out at `width` (the walk's pages are opened at one width and judged at others). */
export async function atWidth(page: Page, width: number): Promise<void> {
  await page.setViewportSize({ width, height: 720 });
  // Judged after the next frame, when the new width's layout is drawn.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}
