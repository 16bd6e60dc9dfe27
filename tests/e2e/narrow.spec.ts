import sharp from 'sharp';
import { expect, test } from '../helpers/e2e-test.ts';
import { drawTextPicture, fixtureFont, registerTestFont } from '../helpers/identify.ts';
import { atWidth, overflow, ROUTE_WALKER, walkEveryRoute } from '../helpers/route-walk.ts';
import { MIN_TARGET, smallTargets } from '../helpers/touch-targets.ts';

// Every page in one walk (the walk is the costly part, so each page is judged for everything at once):
// one page of every route, the visitor's and the signed-in ones, must
// - fit the narrowest phones in use (320 px): a table or a code block may scroll inside its own box, the
//   page itself may not;
// - offer targets a finger can hit on a phone (375 px): every visible link, button, field, select, text area,
//   role=button, summary and checkbox or radio label is at least 44 × 44 CSS px (WCAG 2.5.5); links inside
//   running text are exempt, as WCAG 2.5.8 exempts them, and so are disabled controls
//   (tests/helpers/touch-targets.ts);
// - load with no Content-Security-Policy violation and no console error: an inline script the policy does not
//   know by hash, an inline event handler or a script from elsewhere would show up here.
// The same walk with another set of system fonts and the longest names is narrow-other-fonts.spec.ts.

test(`every page fits 320 px, has ${MIN_TARGET} px targets at 375 px and breaks no policy`, async ({
  page,
  request,
}) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${new URL(page.url()).pathname}: ${message.text().slice(0, 300)}`);
  });
  page.on('pageerror', (error) => errors.push(`${new URL(page.url()).pathname}: ${error.message}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI} ${event.sample}`);
    });
  });
  await atWidth(page, 320);
  const { routes, found } = await walkEveryRoute(page, request, ROUTE_WALKER, async (page) => {
    const wide = (await overflow(page)).map((finding) => `at 320 px ${finding}`);
    await atWidth(page, 375);
    const small = await smallTargets(page);
    await atWidth(page, 320);
    return [...wide, ...small];
  });
  expect(routes).toBeGreaterThan(70);
  expect(found).toEqual([]);
  expect(errors).toEqual([]);
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
