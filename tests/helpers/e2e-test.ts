import { test as base } from '@playwright/test';

export { expect } from '@playwright/test';

let visitors = 0;

/**
 * Playwright's test, with every test's browser coming from an address of its own: the server runs
 * with TRUST_PROXY and reads X-Forwarded-For, as behind the site's proxy. Per-address limits (codes,
 * registrations, puzzles) then apply to each journey as they apply to one visitor, and the suite
 * does not run into them as it grows.
 */
export const test = base.extend({
  context: async ({ context }, use, testInfo) => {
    visitors += 1;
    await context.setExtraHTTPHeaders({ 'X-Forwarded-For': `10.77.${testInfo.workerIndex % 250}.${visitors % 250}` });
    await use(context);
  },
});
