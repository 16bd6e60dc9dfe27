import type { Page } from '@playwright/test';
import { expect, test } from '../helpers/e2e-test.ts';

// A reader on a slow connection clicks before the page's scripts have arrived (module scripts
// delay DOMContentLoaded, so the page is only waited for until it commits). Every script is
// held back until after the click; the click must still do what it says once they run.

// A service worker would answer from its own cache, out of the test's reach.
test.use({ serviceWorkers: 'block' });

async function holdScripts(page: Page): Promise<() => void> {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/_astro\/.*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

test('a visitor’s first click on 收藏 before the scripts arrive opens the login dialog', async ({ page }) => {
  const list = (await (await page.request.get('/web/api/web-wenzhang/selectPage?current=1&size=1')).json()) as {
    data: { records: Array<{ id: number }> };
  };
  const href = `/news/${list.data.records[0]?.id}`;
  const release = await holdScripts(page);
  await page.goto(href, { waitUntil: 'commit' });
  await page.getByRole('button', { name: '收藏' }).click();
  await expect(page.getByRole('button', { name: '收藏' })).toHaveAttribute('aria-busy', 'true');
  release();
  await expect(page.getByRole('dialog', { name: '登录' })).toBeVisible();
});

test('compare and download clicks made before the scripts arrive are carried out', async ({ page }) => {
  const release = await holdScripts(page);
  await page.goto('/font/noto-sans-sc', { waitUntil: 'commit' });
  const compare = page.getByRole('button', { name: '把思源黑体（简体）加入对比' });
  await compare.click();
  await page.getByRole('button', { name: '下载字体' }).click();
  release();
  await expect(page.getByRole('dialog', { name: '下载思源黑体（简体）' })).toBeVisible();
  await expect(compare).toHaveAttribute('aria-pressed', 'true');
});

test('the header’s 登录 clicked before the scripts arrive opens the dialog', async ({ page }) => {
  const release = await holdScripts(page);
  await page.goto('/help', { waitUntil: 'commit' });
  await page.getByRole('banner').getByRole('button', { name: '登录', exact: true }).click();
  release();
  await expect(page.getByRole('dialog', { name: '登录' }).getByRole('tab', { name: '密码登录' })).toBeVisible();
});

test('a login typed and sent before the form’s script arrives is sent once it runs, with what was typed', async ({
  page,
}) => {
  const release = await holdScripts(page);
  await page.goto('/account/admission', { waitUntil: 'commit' });
  await page.getByLabel('手机号或邮箱').fill('early@example.com');
  await page.getByLabel('密码', { exact: true }).fill('typed before the script');
  await page.getByRole('button', { name: '登录', exact: true }).click();
  release();
  // The page did not reload: the typed address is still there, and the login went on to the puzzle.
  await expect(page.getByRole('dialog', { name: '安全验证' })).toBeVisible();
  await expect(page.getByLabel('手机号或邮箱')).toHaveValue('early@example.com');
  expect(new URL(page.url()).search).toBe('');
});
