import type { APIRequestContext, Page } from '@playwright/test';
import sharp from 'sharp';
import { crawlSite, onePagePerRoute, SIGNED_IN_SCOPE } from '../helpers/crawl.ts';
import { expect, test } from '../helpers/e2e-test.ts';
import { sessionOverHttp } from '../helpers/http-account.ts';
import { drawTextPicture, fixtureFont, registerTestFont } from '../helpers/identify.ts';
import { MIN_TARGET, smallTargets } from '../helpers/touch-targets.ts';

// Phones: one page of every route, the visitor's and the signed-in ones, must fit the narrowest
// phones in use (320 px) and offer targets a finger can hit (44 × 44 px, at 375 px).

/** The editor whose session walks the signed-in pages (EDITOR_ACCOUNTS in playwright.config.ts). */
const WALKER = 'route-walker@example.com';

/**
 * Opens one page of every route at `width` and answers what `check` finds there, as `path: finding`.
 * The visitor's pages come from a crawl from home; then, signed in as an editor who has a custom-font
 * request and a submission of its own, the user centre's and the editors' pages.
 */
async function walkEveryRoute(
  page: Page,
  request: APIRequestContext,
  width: number,
  check: (page: Page) => Promise<string[]>,
): Promise<{ routes: number; found: string[] }> {
  const base = test.info().project.use.baseURL ?? '';
  const token = await sessionOverHttp(base, process.env['E2E_DATA_DIR'] ?? '', WALKER, 'Walk-every-route-1');
  const visitor = onePagePerRoute(await crawlSite(request));
  await page.setViewportSize({ width, height: 720 });
  const found: string[] = [];
  const visit = async (paths: string[]) => {
    for (const path of paths) {
      // Loaded and its client:load islands hydrated (a submission page keeps a request open, so the
      // network never goes idle there).
      await page.goto(path, { waitUntil: 'load' });
      await page.waitForFunction(() => !document.querySelector('astro-island[client="load"][ssr]'));
      // Judged as the visitor sees it: with the page's web fonts drawn, not in the fallback before them.
      await page.evaluate(async () => {
        await document.fonts.ready;
      });
      for (const finding of await check(page)) found.push(`${path}: ${finding}`);
    }
  };
  await visit(visitor);
  await page.context().addCookies([{ name: 'token', value: token, url: base }]);
  const signedIn = onePagePerRoute(await crawlSite(page.context().request, SIGNED_IN_SCOPE));
  expect(signedIn).toEqual(
    expect.arrayContaining(['/user/overview', '/editor', '/dingzhi/apply', '/user/dingzhi', '/user/submit']),
  );
  await visit(signedIn);
  return { routes: visitor.length + signedIn.length, found };
}

/** How far the page scrolls sideways, naming the widest element that sticks out; none when it fits. */
async function overflow(page: Page): Promise<string[]> {
  const found = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= width) return null;
    // Name the widest element that sticks out, so the failure says what to fix.
    let culprit = '';
    let widest = width;
    for (const element of document.body.querySelectorAll('*')) {
      const right = element.getBoundingClientRect().right;
      if (right > widest + 1) {
        widest = right;
        culprit = `${element.tagName.toLowerCase()}.${[...element.classList].join('.')}`;
      }
    }
    return `${document.documentElement.scrollWidth} px (${culprit})`;
  });
  return found ? [found] : [];
}

// A table or a code block may scroll inside its own box; the page itself may not.
test('no page scrolls sideways at 320 px', async ({ page, request }) => {
  test.setTimeout(360_000);
  const { routes, found } = await walkEveryRoute(page, request, 320, overflow);
  expect(routes).toBeGreaterThan(70);
  expect(found).toEqual([]);
});

// The rule (tests/helpers/touch-targets.ts): every visible link, button, field, select, text area,
// role=button, summary and checkbox or radio label is at least 44 × 44 CSS px on a phone (WCAG 2.5.5).
// Links inside running text are exempt, as WCAG 2.5.8 exempts them; so are disabled controls.
test(`every control on every page is at least ${MIN_TARGET} px square on a phone`, async ({ page, request }) => {
  test.setTimeout(360_000);
  const { routes, found } = await walkEveryRoute(page, request, 375, smallTargets);
  expect(routes).toBeGreaterThan(70);
  expect(found).toEqual([]);
});

/** A photo-like JPEG of 永和九年 in the fixture Noto Sans SC Bold, for identification. */
async function textPhoto(): Promise<Buffer> {
  const family = registerTestFont(fixtureFont('noto-sans-sc', 'NotoSansSC_700Bold.ttf'));
  const { gray } = drawTextPicture({ lines: ['永和九年'], family, size: 64 });
  return sharp(gray.data, { raw: { width: gray.width, height: gray.height, channels: 1 } })
    .jpeg({ quality: 75 })
    .toBuffer();
}

// A page is not only what it first shows: the controls that appear as it is used (a filled comparison,
// the open filter sheet, the characters found in a picture, a tool's results) must be as easy to hit.
test(`controls that appear as a page is used are at least ${MIN_TARGET} px square on a phone`, async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 375, height: 720 });
  const found: string[] = [];
  const judge = async (state: string) => {
    await page.evaluate(async () => {
      await document.fonts.ready;
    });
    for (const finding of await smallTargets(page)) found.push(`${state}: ${finding}`);
  };
  const hydrated = () => page.waitForFunction(() => !document.querySelector('astro-island[client="load"][ssr]'));

  await page.goto('/user/compare?fonts=noto-sans-sc,ma-shan-zheng,zcool-kuaile');
  await hydrated();
  await expect(page.getByRole('article')).toHaveCount(3);
  await expect(page.locator('.glyph-overlay svg path')).toHaveCount(2);
  await judge('a comparison of three fonts');

  await page.goto('/font');
  await page.locator('summary', { hasText: '筛选' }).click();
  await page.locator('summary', { hasText: '排版' }).click();
  await expect(page.getByRole('group', { name: '分类' })).toBeVisible();
  await judge('the library with its filters and settings open');

  await page.goto('/font/noto-sans-sc');
  await page.getByLabel('有没有这个字？').fill('永龘');
  await page.getByRole('button', { name: '查一查' }).click();
  await expect(page.getByRole('complementary', { name: '字形放大' })).toContainText('U+6C38');
  await judge('a font page after a character was looked up');

  await page.goto('/tools/unidentifiedBody');
  await hydrated();
  await page
    .getByLabel('选择图片')
    .setInputFiles({ name: 'photo.jpg', mimeType: 'image/jpeg', buffer: await textPhoto() });
  await expect(page.getByRole('img', { name: '上传的图片' })).toBeVisible();
  await page.getByRole('button', { name: '找出文字' }).click();
  await expect(page.getByRole('textbox', { name: /^第 \d+ 个字$/ })).toHaveCount(4);
  await judge('identification after 找出文字');

  await page.goto('/tools/converter');
  await hydrated();
  await page.getByLabel(/选择字体文件/).setInputFiles('tests/fixtures/fonts/zcool-kuaile/ZCOOLKuaiLe_400Regular.ttf');
  await expect(page.getByText('ZCOOLKuaiLe_400Regular.ttf')).toBeVisible();
  await page.getByRole('checkbox', { name: /^WOFF2/ }).check();
  await page.getByRole('checkbox', { name: /^WOFF\s/ }).check();
  await page.getByRole('button', { name: '开始转换' }).click();
  await expect(page.getByRole('region', { name: '转换结果' }).getByRole('listitem')).toHaveCount(2);
  await judge('the converter with its results');

  expect(found).toEqual([]);
});
