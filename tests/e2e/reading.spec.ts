import { expect, test } from '../helpers/e2e-test.ts';

// Layout shifts a reader sees while a page loads and while scrolling to its end (CLS, without the
// shifts a click or key press causes).
async function shiftsOf(page: import('@playwright/test').Page, path: string): Promise<number> {
  await page.goto(path, { waitUntil: 'networkidle' });
  for (let i = 0; i < 6; i++) {
    await page.mouse.wheel(0, 800);
    await imagesInViewSettled(page);
  }
  return page.evaluate(() => (window as unknown as { __shift: number }).__shift);
}

/**
 * Waits until the scroll ends and every image on screen (and the next screen, which lazy loading fetches ahead) has
 * arrived or failed, then two frames so the layout shifts it caused are reported.
 */
async function imagesInViewSettled(page: import('@playwright/test').Page): Promise<void> {
  // The wheel's scroll goes on after the event: wait until the page stands still for a few frames.
  await page.evaluate(
    () =>
      new Promise((resolve) => {
        let last = -1;
        let still = 0;
        const tick = () => {
          still = window.scrollY === last ? still + 1 : 0;
          last = window.scrollY;
          if (still >= 3) resolve(null);
          else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
  );
  await page.waitForFunction(
    () =>
      [...document.images]
        .filter((image) => {
          const box = image.getBoundingClientRect();
          return box.bottom > 0 && box.top < window.innerHeight * 2 && box.width > 0;
        })
        .every((image) => image.complete),
    undefined,
  );
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(null)))),
  );
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
