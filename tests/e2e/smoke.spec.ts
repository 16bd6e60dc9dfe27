import { expect, test } from '../helpers/e2e-test.ts';

test.describe('the home page', () => {
  test('opens in Chromium with the site title and no script errors', async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const response = await page.goto('/');
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle(/造字联盟官网/);
    await expect(page.getByRole('navigation').first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(errors).toEqual([]);
  });
});
