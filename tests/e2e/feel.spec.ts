import { expect, test } from '../helpers/e2e-test.ts';

test.describe('the theme', () => {
  test('stays dark across reloads and pages once chosen', async ({ page }) => {
    await page.goto('/');
    const html = page.locator('html');
    await expect(html).not.toHaveAttribute('theme', 'dark');
    // The switch's script sets aria-pressed once it has read the theme.
    await expect(page.getByRole('button', { name: '深色主题' })).toHaveAttribute('aria-pressed', 'false');
    await page.getByRole('button', { name: '深色主题' }).click();
    await expect(html).toHaveAttribute('theme', 'dark');

    await page.reload({ waitUntil: 'domcontentloaded' });
    // Set by the inline head script, before any other script runs.
    expect(await page.evaluate(() => document.documentElement.getAttribute('theme'))).toBe('dark');
    await page.goto('/help');
    await expect(html).toHaveAttribute('theme', 'dark');
    await expect(page.getByRole('button', { name: '深色主题' })).toHaveAttribute('aria-pressed', 'true');

    await page.getByRole('button', { name: '深色主题' }).click();
    await page.reload();
    await expect(html).not.toHaveAttribute('theme', 'dark');
  });

  test('follows the system preference until the visitor chooses', async ({ browser }) => {
    const context = await browser.newContext({ colorScheme: 'dark' });
    const page = await context.newPage();
    await page.goto('/help');
    await expect(page.locator('html')).toHaveAttribute('theme', 'dark');
    await context.close();
  });
});

test.describe('toasts and the network notice', () => {
  test('going offline shows a notice; coming back shows a toast that Escape closes', async ({ page, context }) => {
    await page.goto('/help');
    await page.waitForLoadState('networkidle');
    await context.setOffline(true);
    await expect(page.getByText('网络连接已断开')).toBeVisible();
    await context.setOffline(false);
    await expect(page.getByText('网络连接已断开')).toBeHidden();
    const toast = page.getByRole('status').filter({ hasText: '网络已恢复连接' });
    await expect(toast).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(toast).toBeHidden();
  });

  test('a toast has a close button and leaves by itself after 3 s', async ({ page, context }) => {
    // The page's timers run on Playwright's clock, held still once the page has loaded, so "3 s" is
    // exact: still there at 2999 ms, gone at 3000 ms, however loaded the machine is.
    await page.clock.install();
    await page.goto('/help');
    await page.waitForLoadState('networkidle');
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));
    const notice = page.getByText('网络连接已断开');
    await context.setOffline(true);
    await expect(notice).toBeVisible();
    await context.setOffline(false);
    const toast = page.getByRole('status').filter({ hasText: '网络已恢复连接' });
    await expect(toast).toBeVisible();
    await toast.getByRole('button', { name: '关闭提示' }).click();
    await expect(toast).toBeHidden();

    await context.setOffline(true);
    await expect(notice).toBeVisible();
    await context.setOffline(false);
    await expect(toast).toBeVisible();
    await page.clock.runFor(2999);
    await expect(toast).toBeVisible();
    await page.clock.runFor(1);
    await expect(toast).toBeHidden();
  });
});

test.describe('the header', () => {
  test('marks the current section and lists the five tools', async ({ page }) => {
    await page.goto('/news');
    const nav = page.getByRole('navigation', { name: '主导航' });
    await expect(nav.getByRole('link', { name: '资讯' })).toHaveAttribute('aria-current', 'page');
    const tools = nav.getByRole('list', { name: '工具列表' });
    await expect(tools).toBeHidden();
    await nav.getByRole('link', { name: '工具' }).hover();
    await expect(tools).toBeVisible();
    for (const tool of ['字体格式转换', '网页字体子集', '像素字体制作', '词云图生成', '字体识别']) {
      await expect(tools.getByRole('link', { name: new RegExp(tool) })).toBeVisible();
    }
    await page.mouse.move(0, 600);
    await expect(tools).toBeHidden();
  });

  test('the search box asks /search with the words', async ({ page }) => {
    await page.goto('/help');
    await page.getByRole('searchbox', { name: '搜索字体和文章' }).fill('楷体');
    await page.getByRole('searchbox', { name: '搜索字体和文章' }).press('Enter');
    await expect(page).toHaveURL(/\/search\?q=%E6%A5%B7%E4%BD%93$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('搜索“楷体”');
  });

  test('on a phone the menu is a drawer that keeps focus and closes on Escape', async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width: 375, height: 780 } });
    const page = await context.newPage();
    await page.goto('/help');
    const toggle = page.getByRole('button', { name: '打开导航菜单' });
    await toggle.click();
    const drawer = page.getByRole('dialog', { name: '导航菜单' });
    await expect(drawer).toBeVisible();
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press(i % 7 === 6 ? 'Shift+Tab' : 'Tab');
      const inside = await page.evaluate(() => Boolean(document.activeElement?.closest('dialog[open]')));
      expect(inside).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    await expect(toggle).toBeFocused();
    await context.close();
  });
});

test.describe('the service worker', () => {
  test('registers at the root with root scope and serves the offline page', async ({ page, context, baseURL }) => {
    await page.goto('/');
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    expect(scope).toBe(new URL('/', baseURL).href);
    await page.reload();
    await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);

    await context.setOffline(true);
    await page.goto('/news').catch(() => undefined);
    await expect(page.getByRole('heading', { level: 1, name: '网络未连接' })).toBeVisible();
    await context.setOffline(false);
  });

  test('keeps an article read online for reading offline, and the offline page lists it', async ({ page, context }) => {
    await page.goto('/');
    await page.evaluate(async () => navigator.serviceWorker.ready);
    await page.reload();
    await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
    await page.goto('/news');
    const link = page.locator('main a[href^="/news/"]').first();
    const href = (await link.getAttribute('href')) ?? '';
    await link.click();
    const title = (await page.getByRole('heading', { level: 1 }).textContent())?.trim() ?? '';
    expect(title).not.toBe('');

    await context.setOffline(true);
    await page.goto(href);
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await page.goto('/baike').catch(() => undefined);
    await expect(page.getByRole('heading', { level: 1, name: '网络未连接' })).toBeVisible();
    const saved = page.getByRole('region', { name: '离线也能读的文章' });
    await expect(saved.getByRole('link', { name: title })).toHaveAttribute('href', href);
    await context.setOffline(false);
  });

  test('ships a manifest with the site name and icons', async ({ request }) => {
    const response = await request.get('/manifest.webmanifest');
    expect(response.ok()).toBe(true);
    const manifest = await response.json();
    expect(manifest).toMatchObject({ name: '造字联盟官网', short_name: '造字联盟', scope: '/', start_url: '/' });
    for (const icon of manifest.icons as { src: string }[]) {
      expect((await request.get(icon.src)).ok()).toBe(true);
    }
  });
});
