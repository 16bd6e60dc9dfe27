import { violations } from '../helpers/axe.ts';
import { expect, test } from '../helpers/e2e-test.ts';

// On a phone-sized screen as Lighthouse's mobile preset uses, for the pages readers open most.

test('home, the library, a font page and an article pass every accessibility check', async ({ page }) => {
  await page.setViewportSize({ width: 412, height: 823 });
  await page.goto('/news');
  const article = (await page.locator('main a[href^="/news/"]').first().getAttribute('href')) ?? '';
  for (const path of ['/', '/font', '/font/noto-sans-sc', article]) {
    await page.goto(path, { waitUntil: 'networkidle' });
    expect(await violations(page), path).toEqual([]);
  }
});
