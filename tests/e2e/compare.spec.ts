import { expect, test } from '../helpers/e2e-test.ts';

// The compare page as a link: what it compares lives in the address, so a comparison sent to
// someone opens as it was sent, for a visitor too, without touching their own compare list.

const stored = (page: import('@playwright/test').Page) =>
  page.evaluate(() => JSON.parse(localStorage.getItem('compareFonts') ?? '[]').map((font: { id: string }) => font.id));

test('a shared comparison opens as sent for a visitor, and becomes theirs only when they keep it', async ({ page }) => {
  await page.goto('/font');
  await page.evaluate(() =>
    localStorage.setItem('compareFonts', JSON.stringify([{ id: 'zcool-kuaile', familyName: '站酷快乐体' }])),
  );
  await page.goto('/user/compare?fonts=noto-sans-sc,ma-shan-zheng&w=noto-sans-sc:700&mode=stack&text=永和九年');
  // The /user guard lets a visitor through to a comparison.
  await expect(page).toHaveURL(/\/user\/compare\?/);
  await expect(page.getByRole('heading', { level: 1, name: '字体对比' })).toBeVisible();
  const noto = page.getByRole('article', { name: '思源黑体（简体）' });
  await expect(noto).toBeVisible();
  await expect(page.getByRole('article', { name: '马善政毛笔楷书' })).toBeVisible();
  await expect(page.getByRole('article', { name: '站酷快乐体' })).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: '这是一份分享的对比' })).toBeVisible();
  await expect(noto.getByRole('combobox', { name: '思源黑体（简体）的字重' })).toHaveValue('700');
  await expect(noto.locator('[data-preview-gno]')).toHaveAttribute('data-preview-gno', 'noto-sans-sc-700');
  await expect(noto).toContainText('永和九年');
  await expect(page.locator('.compare-board')).toHaveClass(/compare-board--stack/);
  expect(await stored(page)).toEqual(['zcool-kuaile']);

  await page.getByRole('button', { name: '保存为我的对比列表' }).click();
  await expect(page.getByText('这是一份分享的对比')).toHaveCount(0);
  expect(await stored(page)).toEqual(['noto-sans-sc', 'ma-shan-zheng']);
});

test('fonts side by side, each in its own weight, with a glyph of two laid over each other, shared as a link', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/font');
  await page.evaluate(() =>
    localStorage.setItem(
      'compareFonts',
      JSON.stringify([
        { id: 'noto-sans-sc', familyName: '思源黑体（简体）' },
        { id: 'zcool-kuaile', familyName: '站酷快乐体' },
      ]),
    ),
  );
  await page.goto('/user/compare');
  // The visitor's own list, written into the address so it can be shared as it is.
  await expect(page).toHaveURL(/fonts=noto-sans-sc%2Czcool-kuaile|fonts=noto-sans-sc,zcool-kuaile/);
  const cards = page.getByRole('article');
  await expect(cards).toHaveCount(2);
  // Side by side: the cards share a row.
  const [first, second] = await Promise.all([cards.nth(0).boundingBox(), cards.nth(1).boundingBox()]);
  expect(first && second && Math.abs(first.y - second.y) < 1 && second.x > first.x).toBe(true);

  await page.getByRole('combobox', { name: '思源黑体（简体）的字重' }).selectOption('700');
  await expect(page).toHaveURL(/w=noto-sans-sc%3A700/);
  await expect(cards.first().locator('[data-preview-gno]')).toHaveAttribute('data-preview-gno', 'noto-sans-sc-700');

  const overlay = page.getByRole('region', { name: '字形叠加' });
  await expect(overlay.locator('svg path.glyph-overlay__a')).toHaveCount(1);
  await expect(overlay.locator('svg path.glyph-overlay__b')).toHaveCount(1);
  const before = await overlay.locator('svg path.glyph-overlay__a').getAttribute('d');
  await overlay.getByRole('textbox', { name: '字' }).fill('和');
  await expect(page).toHaveURL(/ch=%E5%92%8C/);
  await expect(overlay.locator('svg path.glyph-overlay__a')).not.toHaveAttribute('d', before ?? '');
  await expect(overlay.getByRole('img', { name: /「和」：思源黑体（简体）（红）与站酷快乐体（蓝）/ })).toBeVisible();

  await page.getByText('堆叠', { exact: true }).click();
  await expect(page).toHaveURL(/mode=stack/);
  await page.getByRole('button', { name: '复制对比链接' }).click();
  await expect(page.getByText('对比链接已复制').first()).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(page.url());

  // The link opens the same comparison in a browser that has never seen it.
  const other = await context.browser()?.newPage();
  if (!other) throw new Error('no second page');
  await other.goto(copied);
  await expect(other.getByRole('article')).toHaveCount(2);
  await expect(other.getByRole('combobox', { name: '思源黑体（简体）的字重' })).toHaveValue('700');
  await expect(other.locator('.compare-board')).toHaveClass(/compare-board--stack/);
  await other.close();
});
