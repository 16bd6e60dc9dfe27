import type { Page } from '@playwright/test';
import { registeredPage } from '../helpers/e2e-register.ts';
import { expect, test } from '../helpers/e2e-test.ts';

// The `redirect` parameter of the home page comes from whoever wrote the link. A path that a browser
// resolves to another host (`/.//evil.example` becomes `//evil.example` once its dot segment is
// dropped) must leave a signed-in visitor on this site, and a visitor who logs in too.

const EVIL = 'http://evil.example/**';
const HOSTILE = ['/.//evil.example/phish', '/%2e//evil.example/phish', '/..//evil.example/phish', '/.\\/evil.example'];

/** Answers every request to the other host, so that a navigation there would land on a page of its own. */
async function trapOtherHost(page: Page): Promise<string[]> {
  const reached: string[] = [];
  await page.route(EVIL, (route) => {
    reached.push(route.request().url());
    return route.fulfill({ status: 200, contentType: 'text/html', body: '<title>phish</title><h1>phish</h1>' });
  });
  return reached;
}

test('a signed-in visitor sent to a hostile redirect stays on the site; a path on the site is followed', async ({
  browser,
  baseURL,
}) => {
  const page = await registeredPage(browser, `redirect-${Date.now().toString(36)}@example.com`, 'ink and paper 2026');
  const reached = await trapOtherHost(page);
  const site = new URL(baseURL ?? '').host;
  for (const target of HOSTILE) {
    await page.goto(`/?redirect=${encodeURIComponent(target)}`);
    // The header's account menu is drawn by this site's page, never by the other host's.
    await expect(page.getByRole('button', { name: /的账户菜单$/ })).toBeVisible();
    expect(new URL(page.url()).host).toBe(site);
  }
  // The same browser follows a redirect that stays on the site, so the one above was judged, not lost.
  await page.goto(`/?redirect=${encodeURIComponent('/help')}`);
  await expect(page).toHaveURL(/\/help$/);
  expect(reached).toEqual([]);
  await page.context().close();
});
