import fs from 'node:fs';
import { registerInOpenDialog, solveSliderCaptcha } from '../helpers/e2e-register.ts';
import { expect, test } from '../helpers/e2e-test.ts';

const SHOTS = '/tmp/shots';
const stamp = Date.now().toString(36);

test.describe('reading journey', () => {
  test('goes from home to a news article and keeps it and an album as favourites', async ({ page }) => {
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.goto('/');
    await page.getByRole('link', { name: '更多资讯' }).click();
    await expect(page).toHaveURL(/\/news$/);
    await expect(page.getByRole('heading', { level: 1, name: '资讯' })).toBeVisible();

    // List cards are titled h2, right under the page's h1.
    const first = page.locator('main ol').getByRole('heading', { level: 2 }).first().getByRole('link');
    const title = (await first.textContent())?.trim() ?? '';
    await first.click();
    await expect(page).toHaveURL(/\/news\/\d+$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    await expect(page.locator('meta[property="og:image"]')).toHaveAttribute(
      'content',
      /\/files\/covers\/news\/.+\.webp$/,
    );
    const jsonLd = await page.locator('script[type="application/ld+json"]').allTextContents();
    expect(jsonLd.map((text) => JSON.parse(text)['@type'])).toEqual(['Article', 'BreadcrumbList']);
    await page.screenshot({ path: `${SHOTS}/content-news-1440.png`, fullPage: true });

    // A visitor's favourite click opens the login dialog; after registering, it keeps the article.
    const favorite = page.getByRole('button', { name: '收藏' });
    await favorite.click();
    await expect(page.getByRole('dialog', { name: '登录' })).toBeVisible();
    await registerInOpenDialog(page, `reader-content-${stamp}@example.com`, 'ink and paper 2026');
    await favorite.click();
    await expect(page.getByRole('button', { name: '已收藏' })).toHaveAttribute('aria-pressed', 'true');
    await page.reload();
    await expect(page.getByRole('button', { name: '已收藏' })).toBeVisible();

    // An album: favourite it and follow its download link to a zip.
    await page.goto('/album');
    await page.locator('main ul').getByRole('heading', { level: 2 }).first().getByRole('link').click();
    await expect(page).toHaveURL(/\/album\/\d+$/);
    await page.getByRole('button', { name: '收藏' }).click();
    await expect(page.getByRole('button', { name: '已收藏' })).toBeVisible();
    const download = page.getByRole('link', { name: /下载全部 \d+ 款字体/ });
    const zip = await page.request.get((await download.getAttribute('href')) ?? '');
    expect(zip.status()).toBe(200);
    expect(zip.headers()['content-type']).toBe('application/zip');
    const albumTitle = (await page.getByRole('heading', { level: 1 }).textContent())?.trim() ?? '';
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SHOTS}/content-album-390.png`, fullPage: true });

    // Both are listed in the user centre, newest first, and can be let go of there.
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/user/favorite');
    const albums = page.getByRole('region', { name: /收藏的专辑/ });
    const articles = page.getByRole('region', { name: /收藏的文章/ });
    await expect(albums.getByRole('link', { name: albumTitle })).toBeVisible();
    await expect(articles.getByRole('link', { name: title })).toHaveAttribute('href', /\/news\/\d+$/);
    await page.screenshot({ path: `${SHOTS}/content-favorites-1440.png`, fullPage: true });
    await articles.getByRole('button', { name: '取消收藏' }).click();
    await expect(page.getByText(`已取消收藏「${title}」`).first()).toBeVisible();
    await expect(articles.getByText('还没有收藏文章')).toBeVisible();
    await expect(albums.getByRole('link', { name: albumTitle })).toBeVisible();
  });

  test('leaves a message on the contact page after the slider puzzle', async ({ page }) => {
    await page.goto('/contact');
    const form = page.locator('form.contact-form');
    await form.getByLabel('称呼').fill('王老师');
    await form.getByLabel('手机号或邮箱').fill('12345');
    await form.getByLabel('留言内容').fill('你好');
    await form.getByRole('button', { name: '提交留言' }).click();
    await expect(form.getByText('联系方式格式不正确，请填写手机号或邮箱')).toBeVisible();
    await expect(form.getByText('留言内容至少 5 个字')).toBeVisible();
    await form.getByLabel('手机号或邮箱').fill('wang@example.com');
    await form.getByLabel('留言内容').fill('想了解机构使用字体的授权方式。');
    await form.getByRole('button', { name: '提交留言' }).click();
    await solveSliderCaptcha(page);
    await expect(form.getByRole('status')).toContainText('留言已收到');
  });
});

test('the contact form keeps what was typed before its script arrived', async ({ page }) => {
  // Hold the form's script back until the reader has typed, as on a slow connection.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/_astro\/ContactForm[^/]*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/contact', { waitUntil: 'domcontentloaded' });
  const form = page.locator('form.contact-form');
  await form.getByLabel('称呼').fill('王老师');
  await form.getByLabel('手机号或邮箱').fill('wang@example.com');
  release();
  await expect(page.locator('astro-island[component-url*="ContactForm"]:not([ssr])')).toHaveCount(1);
  await form.getByLabel('留言内容').fill('想了解机构使用字体的授权方式。');
  await form.getByRole('button', { name: '提交留言' }).click();
  await expect(page.getByRole('dialog', { name: '安全验证' })).toBeVisible();
  await expect(form.getByLabel('称呼')).toHaveValue('王老师');
  await expect(form.getByText('请填写称呼')).toHaveCount(0);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('reads the encyclopedia and searches in Chinese', async ({ page }) => {
    await page.goto('/baike');
    await expect(page.getByRole('heading', { level: 2, name: /^楷书/ })).toBeVisible();
    await page.getByRole('link', { name: '永字八法' }).first().click();
    await expect(page.getByRole('heading', { level: 1, name: '永字八法' })).toBeVisible();
    await expect(page.locator('.prose p').first()).not.toBeEmpty();

    await page.goto(`/search?q=${encodeURIComponent('兰亭序')}`);
    await expect(page.getByRole('status')).toContainText('找到');
    await expect(page.locator('.search-results mark').first()).toHaveText('兰亭序');
  });

  test('pages through a list with plain links', async ({ page }) => {
    await page.goto('/news');
    await page.getByRole('navigation', { name: '分页' }).getByRole('link', { name: '下一页' }).click();
    await expect(page).toHaveURL(/\/news\?current=2$/);
    await expect(page.getByRole('navigation', { name: '分页' }).locator('[aria-current="page"]')).toHaveText('2');
  });
});
