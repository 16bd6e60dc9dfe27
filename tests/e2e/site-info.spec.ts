import { expect, test } from '../helpers/e2e-test.ts';

// playwright.config.ts sets the record numbers and channels as an operator would.
test('the footer carries the record numbers and the contact page the channels from configuration', async ({ page }) => {
  await page.goto('/help');
  const footer = page.getByRole('contentinfo');
  await expect(footer.getByRole('link', { name: '京ICP备20260001号-1' })).toHaveAttribute(
    'href',
    'https://beian.miit.gov.cn/',
  );
  await expect(footer.getByRole('link', { name: '京公网安备11010502000001号' })).toHaveAttribute(
    'href',
    /beian\.mps\.gov\.cn.*11010502000001/,
  );
  await page.goto('/contact');
  const other = page.getByRole('complementary', { name: '其他方式' });
  await expect(other.getByRole('link', { name: 'hello@font-alliance.example' })).toHaveAttribute(
    'href',
    'mailto:hello@font-alliance.example',
  );
  await expect(other.getByRole('link', { name: '010-6000 0000' })).toHaveAttribute('href', 'tel:01060000000');
  await expect(other.getByText('造字联盟', { exact: true })).toBeVisible();
  // Unset channels are not shown at all (no address was configured).
  await expect(other.getByText('地址', { exact: true })).toHaveCount(0);
});

test('/user opens the user centre, after the login a visitor is asked for', async ({ request }) => {
  const visitor = await request.get('/user', { maxRedirects: 0 });
  expect(visitor.status()).toBe(302);
  expect(visitor.headers()['location']).toBe('/?redirect=%2Fuser');
  const member = await request.get('/user', { maxRedirects: 0, headers: { cookie: 'token=e2e' } });
  expect(member.headers()['location']).toBe('/user/overview');
});

test('albums and collections are told apart, and covers turn dark with the theme', async ({ page }) => {
  await page.goto('/album');
  const albums = page.getByRole('main').getByRole('article');
  await expect(albums.first()).toBeVisible();
  await expect(page.getByRole('main').getByText(/可整包下载/)).toHaveCount(0);
  await page.goto('/heji');
  await expect(page.getByRole('paragraph').filter({ hasText: '可以整包下载' }).first()).toBeVisible();
  const kit = page.getByRole('main').getByRole('article').first();
  await expect(kit.getByText(/\d+ 款字体 · 可整包下载/)).toBeVisible();
  // A collection is a row: its cover sits beside its text, not above it.
  const cover = await kit.locator('.group-card__media').boundingBox();
  const title = await kit.getByRole('heading').boundingBox();
  expect(title?.x ?? 0).toBeGreaterThan((cover?.x ?? 0) + (cover?.width ?? 0) - 1);

  const image = kit.locator('img').first();
  expect(await image.evaluate((element) => getComputedStyle(element).filter)).toBe('none');
  await page.evaluate(() => document.documentElement.setAttribute('theme', 'dark'));
  expect(await image.evaluate((element) => getComputedStyle(element).filter)).toContain('invert');
});
