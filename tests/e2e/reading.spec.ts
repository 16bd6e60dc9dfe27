import { expect, test } from '../helpers/e2e-test.ts';

// Layout shifts a reader sees while a page loads and while scrolling to its end (CLS, without the
// shifts a click or key press causes).
async function shiftsOf(page: import('@playwright/test').Page, path: string): Promise<number> {
  await page.goto(path, { waitUntil: 'networkidle' });
  for (let i = 0; i < 6; i++) {
    await page.mouse.wheel(0, 800);
    await page.waitForTimeout(150);
  }
  // Images near the viewport load within the throttle; give the last ones time to arrive.
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(300);
  return page.evaluate(() => (window as unknown as { __shift: number }).__shift);
}

test.describe('reading lists', () => {
  test.beforeEach(async ({ page }) => {
    await page.addInitScript(() => {
      const state = window as unknown as { __shift: number };
      state.__shift = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) {
          if (!entry.hadRecentInput) state.__shift += entry.value;
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
  });

  for (const width of [375, 1440]) {
    test(`covers reserve their box: every list shifts less than 0.05 at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      for (const path of ['/', '/font', '/news', '/zixun', '/baike', '/album', '/heji', '/case']) {
        expect(await shiftsOf(page, path), path).toBeLessThanOrEqual(0.05);
      }
    });
  }

  test('back from an article returns to the same place in the list', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto('/zixun', { waitUntil: 'networkidle' });
    const link = page.locator('main a[href^="/zixun/"]').filter({ visible: true }).last();
    await link.scrollIntoViewIfNeeded();
    const position = await page.evaluate(() => Math.round(window.scrollY));
    expect(position).toBeGreaterThan(600);
    await link.click();
    await expect(page).toHaveURL(/\/zixun\/\d+/);
    await page.goBack();
    await expect(page).toHaveURL(/\/zixun$/);
    await expect.poll(() => page.evaluate(() => Math.round(window.scrollY))).toBe(position);
  });
});
