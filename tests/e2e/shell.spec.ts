import { registerInOpenDialog } from '../helpers/e2e-register.ts';
import { expect, test } from '../helpers/e2e-test.ts';

test.describe('unknown and malformed addresses', () => {
  test('answer 404 with the not-found page and a way home', async ({ page }) => {
    const response = await page.goto('/no/such/page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('This page could not be found');
    await expect(page.getByText('页面不存在', { exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: '返回首页' })).toHaveAttribute('href', '/');
  });

  test('a detail route with a malformed id is a 404 too', async ({ page }) => {
    const response = await page.goto('/news/not-a-number');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('This page could not be found');
  });

  test('a detail route whose id names nothing is a 404 for every kind', async ({ request }) => {
    for (const path of ['/news/999999', '/zixun/999999', '/baike/999999', '/album/999999', '/heji/999999']) {
      const response = await request.get(path);
      expect(response.status(), path).toBe(404);
      expect(await response.text(), path).toContain('This page could not be found');
    }
  });
});

test.describe('the .html suffix', () => {
  for (const path of ['/help', '/news', '/agreement/font', '/font/noto-sans-sc', '/']) {
    test(`${path === '/' ? '/index' : path}.html shows the same page as ${path}`, async ({ page }) => {
      const plain = await page.goto(path);
      expect(plain?.status()).toBe(200);
      const heading = await page.getByRole('heading', { level: 1 }).textContent();
      const canonical = await page.locator('link[rel="canonical"]').getAttribute('href');

      const suffixed = await page.goto(`${path === '/' ? '/index' : path}.html`);
      expect(suffixed?.status()).toBe(200);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading ?? '');
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', canonical ?? '');
      expect(new URL(canonical ?? '').pathname).toBe(path);
    });
  }

  test('never leads off the site', async ({ request, baseURL }) => {
    const response = await request.get(`${baseURL}//evil.example.html`, { maxRedirects: 0 });
    expect(response.status()).toBe(404);
    expect(response.headers()['location']).toBeUndefined();
  });
});

test.describe('the /user guard', () => {
  test('sends a visitor home with the redirect and the login dialog open', async ({ page }) => {
    const response = await page.goto('/user/overview?tab=fonts');
    expect(response?.status()).toBe(200);
    const url = new URL(page.url());
    expect(url.pathname).toBe('/');
    expect(url.searchParams.get('redirect')).toBe('/user/overview?tab=fonts');
    await expect(page.getByRole('dialog', { name: '登录' })).toBeVisible();
  });

  test('the login dialog closes on Escape', async ({ page }) => {
    await page.goto('/user/favorite');
    const dialog = page.getByRole('dialog', { name: '登录' });
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  });

  test('guards links in the browser without requesting the private page', async ({ page }) => {
    await page.goto('/tougao');
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    await page.getByRole('navigation', { name: '投稿流程' }).getByRole('link', { name: '提交作品' }).click();
    await expect(page).toHaveURL(/\/\?redirect=%2Fuser%2Fsubmit$/);
    await expect(page.getByRole('dialog', { name: '登录' })).toBeVisible();
    expect(requested).not.toContain('/user/submit');
  });

  test('after logging in at the redirect, the visitor lands on the requested path', async ({ page }) => {
    await page.goto('/user/message');
    await expect(page).toHaveURL(/\/\?redirect=%2Fuser%2Fmessage$/);
    await registerInOpenDialog(page, `guard-${Date.now().toString(36)}@example.com`, 'ink and paper 2026');
    await expect(page).toHaveURL(/\/user\/message$/);
    await expect(page.getByRole('heading', { level: 1, name: '消息通知' })).toBeVisible();

    const direct = await page.goto('/user/overview');
    expect(direct?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: '账户概览' })).toBeVisible();
  });

  test('ignores a redirect that would leave the site', async ({ page, context, baseURL }) => {
    await context.addCookies([{ name: 'token', value: 'e2e-token', url: baseURL ?? '' }]);
    await page.goto('/?redirect=%2F%2Fevil.example%2Fuser');
    await page.waitForLoadState('networkidle');
    expect(new URL(page.url()).origin).toBe(new URL(baseURL ?? '').origin);
    expect(new URL(page.url()).pathname).toBe('/');
  });
});

test.describe('every SPEC route', () => {
  const publicRoutes = [
    '/',
    '/Agent',
    '/album',
    '/baike',
    '/case',
    '/contact',
    '/font',
    '/font/noto-sans-sc',
    '/freetype',
    '/heji',
    '/help',
    '/license',
    '/news',
    '/tools',
    '/tougao',
    '/zixun',
    '/account/admission',
    '/account/wechat',
    '/agreement/font',
    '/agreement/register',
    '/tools/converter',
    '/tools/pixel',
    '/tools/unidentifiedBody',
    '/tools/wordcloud',
    '/tools/subset',
    '/search',
    '/user/compare',
  ];
  const userRoutes = [
    '/user/contact',
    '/user/download',
    '/user/favorite',
    '/user/message',
    '/user/message/1',
    '/user/overview',
    '/user/profile',
    '/user/signing',
    '/user/submission',
    '/user/submission/00000000-0000-4000-8000-000000000000',
    '/user/submit',
  ];

  // Detail pages of content: the first item each list links to (ids are shared across kinds).
  const listsWithDetails = ['/album', '/baike', '/heji', '/news', '/zixun'];

  test('answers 200 with and without the .html suffix', async ({ request }) => {
    const details: string[] = [];
    for (const list of listsWithDetails) {
      const html = await (await request.get(list)).text();
      const detail = html.match(new RegExp(`href="(${list}/\\d+)"`))?.[1];
      expect(detail, `a detail link on ${list}`).toBeTruthy();
      details.push(detail ?? '');
    }
    for (const route of [...publicRoutes, ...details]) {
      for (const path of [route, route === '/' ? '/index.html' : `${route}.html`]) {
        const response = await request.get(path, { maxRedirects: 0 });
        expect(response.status(), path).toBe(200);
        expect(await response.text(), path).toContain('<h1');
      }
    }
  });

  // Pages rendered from the account's own data check the session itself; the others render a
  // shell whose islands ask the API (user-centre.spec.ts signs in for real).
  const renderedForTheAccount = new Set([
    '/user/overview',
    '/user/profile',
    '/user/message',
    '/user/message/1',
    '/user/contact',
    '/user/signing',
    '/user/submission',
    '/user/submission/00000000-0000-4000-8000-000000000000',
    '/user/submit',
  ]);

  test('user centre pages answer 302 to a visitor, and to a token no session knows when they render its data', async ({
    request,
  }) => {
    for (const route of userRoutes) {
      const blocked = await request.get(route, { maxRedirects: 0 });
      expect(blocked.status(), route).toBe(302);
      expect(blocked.headers()['location'], route).toBe(`/?redirect=${encodeURIComponent(route)}`);
      const withToken = await request.get(`${route}.html`, { maxRedirects: 0, headers: { cookie: 'token=e2e' } });
      if (renderedForTheAccount.has(route)) {
        expect(withToken.status(), route).toBe(302);
        expect(withToken.headers()['location'], route).toBe(`/?redirect=${encodeURIComponent(route)}`);
      } else {
        expect(withToken.status(), route).toBe(200);
      }
    }
  });
});

test('the header’s tools menu links every tool, none marked as coming soon, as /tools does', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/help');
  const menu = page.getByRole('list', { name: '工具列表' });
  await page.getByRole('banner').getByRole('link', { name: '工具' }).hover();
  await expect(menu.getByRole('link', { name: '字体识别' })).toBeVisible();
  await expect(menu.getByText('即将上线')).toHaveCount(0);
  await expect(menu.getByRole('link', { name: /词云图生成/ })).not.toContainText('即将上线');
  await expect(menu.getByRole('link', { name: /像素字体制作/ })).not.toContainText('即将上线');
  await expect(menu.getByRole('link', { name: /字体格式转换/ })).not.toContainText('即将上线');
  await page.screenshot({ path: 'test-results/shots/tools-menu-1440.png' });
  await page.goto('/tools');
  await expect(page.locator('main').getByText('即将上线')).toHaveCount(0);
});
