import { type Browser, type BrowserContext, test as base } from '@playwright/test';

export { expect } from '@playwright/test';

let visitors = 0;

/** The next visitor's address, as the site's proxy would forward it. */
function nextAddress(worker: number): string {
  visitors += 1;
  return `10.77.${worker % 250}.${visitors % 250}`;
}

/** A second browser in a test (a reviewer beside a designer), from an address of its own. */
export function newVisitorContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ extraHTTPHeaders: { 'X-Forwarded-For': nextAddress(test.info().workerIndex + 100) } });
}

/**
 * Playwright's test, with every test's browser coming from an address of its own: the server runs
 * with TRUST_PROXY and reads X-Forwarded-For, as behind the site's proxy. Per-address limits (codes,
 * registrations, puzzles) then apply to each journey as they apply to one visitor, and the suite
 * does not run into them as it grows.
 */
export const test = base.extend({
  context: async ({ context }, use, testInfo) => {
    await context.setExtraHTTPHeaders({ 'X-Forwarded-For': nextAddress(testInfo.workerIndex) });
    await use(context);
  },
});
