import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from '../helpers/e2e-test.ts';

// The converter and the subset generator against the real tools API, with the fixture fonts.

const FONT = path.resolve('tests/fixtures/fonts/zcool-kuaile/ZCOOLKuaiLe_400Regular.ttf');
/** The 8-byte signature and IHDR start of a PNG: enough for any sniffer to call it an image. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4a70000000049454e44ae426082',
  'hex',
);

/** Waits until the tool island has hydrated (Astro drops the `ssr` mark), so its inputs listen. */
async function toolReady(page: Page): Promise<void> {
  await expect(page.locator('astro-island[opts*="Converter"], astro-island[opts*="SubsetTool"]')).not.toHaveAttribute(
    'ssr',
    /.*/,
  );
}

/** Uploads the fixture font through the file input and waits for what the server read from it. */
async function uploadFixtureFont(page: Page): Promise<void> {
  await toolReady(page);
  await page.getByLabel(/选择字体文件/).setInputFiles(FONT);
  const info = page.getByRole('definition').filter({ hasText: 'ZCOOL KuaiLe' });
  await expect(info).toBeVisible();
  await expect(page.getByText('ZCOOLKuaiLe_400Regular.ttf')).toBeVisible();
}

/** Resolves with the last job state the page read once the job is done or failed. */
function jobOutcome(page: Page) {
  return page.waitForResponse(async (response) => {
    if (!response.url().includes('/tools/api/jobs/')) return false;
    const body = await response.json().catch(() => null);
    return body?.data?.state === 'done' || body?.data?.state === 'failed';
  });
}

test.describe('the font tools', () => {
  test('convert an upload to WOFF and WOFF2, follow the job and download the WOFF2', async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto('/tools/converter');
    await uploadFixtureFont(page);
    await expect(page.getByRole('definition').filter({ hasText: /^TTF$/ })).toBeVisible();

    await page.getByRole('checkbox', { name: /^WOFF2/ }).check();
    await page.getByRole('checkbox', { name: /^WOFF\s/ }).check();
    await expect(page.getByRole('checkbox', { name: /^EOT/ })).not.toBeChecked();
    const outcome = jobOutcome(page);
    await page.getByRole('button', { name: '开始转换' }).click();
    const job = (await (await outcome).json()).data;
    expect(job).toMatchObject({ state: 'done', progress: 1 });

    const results = page.getByRole('region', { name: '转换结果' });
    await expect(results.getByRole('listitem')).toHaveCount(2);
    await expect(results.getByRole('listitem').filter({ hasText: 'WOFF2' })).toContainText(
      'ZCOOLKuaiLe_400Regular.woff2',
    );
    await expect(results.getByRole('link', { name: /打包下载/ })).toHaveAttribute('href', /\.zip$/);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      results.getByRole('link', { name: /下载 .*\.woff2$/ }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.woff2$/);
    const bytes = await readFile(await download.path());
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('wOF2');
    expect(errors).toEqual([]);
  });

  test('subset typed text and preview it in the produced font, with the CSS to copy', async ({ page }) => {
    await page.goto('/tools/subset');
    await uploadFixtureFont(page);
    // A .txt saved as GBK (common on Windows) is read as Chinese, not mojibake.
    await page.getByLabel('导入 .txt 文件').setInputFiles({
      name: 'words.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('c1aac3cbd7d6cce5', 'hex'),
    });
    await expect(page.getByLabel('输入或粘贴文字')).toHaveValue('联盟字体');
    await page.getByLabel('输入或粘贴文字').fill('造字联盟ABC');
    await expect(page.getByText('7 个不同的字符')).toBeVisible();
    await page.getByRole('button', { name: '生成子集' }).click();

    const results = page.getByRole('region', { name: '生成结果' });
    const preview = results.locator('.subset-preview__text[data-font-family]');
    await expect(preview).toHaveText('造字联盟ABC');
    const drawn = await preview.evaluate((element) => {
      const family = (element as HTMLElement).dataset['fontFamily'] ?? '';
      return {
        family,
        computed: getComputedStyle(element).fontFamily,
        loaded: [...document.fonts].some(
          (face) => face.family.replace(/['"]/g, '') === family && face.status === 'loaded',
        ),
        check: document.fonts.check(`32px '${family}'`, '造字联盟'),
      };
    });
    expect(drawn.family).toMatch(/^subset-preview-\d+$/);
    expect(drawn.computed).toContain(drawn.family);
    expect(drawn).toMatchObject({ loaded: true, check: true });

    await expect(results.getByRole('definition').first()).toHaveText('7');
    await expect(results.locator('pre')).toContainText('@font-face');
    await expect(results.locator('pre')).toContainText(".woff2') format('woff2')");
    await expect(results.getByRole('button', { name: '复制 @font-face 代码' })).toBeVisible();
  });

  test('a conversion under way says what it is doing and counts the time spent', async ({ page }) => {
    // The page's clock is held, and the job's answers are held back as a slow server would, so the
    // running state stays on screen while the test reads it.
    await page.clock.install();
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/tools/api/jobs/*', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/tools/converter');
    await uploadFixtureFont(page);
    await page.getByRole('checkbox', { name: /^WOFF2/ }).check();
    // From here the page's time moves only when the test moves it, however slow the machine is.
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
    await page.getByRole('button', { name: '开始转换' }).click();
    const progress = page.getByRole('progressbar', { name: '转换进度' });
    await expect(progress).toBeVisible();
    await expect(page.getByText(/已用/)).toHaveCount(0);
    await page.clock.runFor(3_000);
    await expect(page.getByText('已用 3 秒')).toBeVisible();
    await page.clock.runFor(62_000);
    await expect(page.getByText('已用 1 分 05 秒')).toBeVisible();
    release();
    await page.clock.resume();
    await expect(
      page.getByRole('region', { name: '转换结果' }).getByRole('listitem').filter({ hasText: 'WOFF2' }),
    ).toBeVisible();
    await expect(progress).toHaveCount(0);
  });

  test('a PNG renamed .ttf gets a Chinese error and no result', async ({ page }) => {
    await page.goto('/tools/converter');
    await toolReady(page);
    await page.getByLabel(/选择字体文件/).setInputFiles({ name: 'photo.ttf', mimeType: 'font/ttf', buffer: PNG });
    const alert = page.locator('.tool-error[role="alert"]');
    await expect(alert).toContainText('这不是字体文件');
    await expect(page.getByRole('alert').filter({ hasText: '这不是字体文件' }).first()).toBeVisible();
    await expect(page.getByLabel('已上传的字体')).toHaveCount(0);
    await expect(page.getByRole('button', { name: '开始转换' })).toBeDisabled();
    await expect(page.getByRole('region', { name: '转换结果' }).getByRole('listitem')).toHaveCount(0);
  });

  test('the overview links every tool, none announced as coming soon', async ({ page, request }) => {
    await page.goto('/tools');
    const main = page.getByRole('main');
    await expect(main.getByText('即将上线')).toHaveCount(0);
    const hrefs = await main
      .locator('a[href^="/tools/"]')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(hrefs.sort()).toEqual([
      '/tools/converter',
      '/tools/pixel',
      '/tools/subset',
      '/tools/unidentifiedBody',
      '/tools/wordcloud',
    ]);
    for (const href of hrefs) expect((await request.get(href ?? '')).status()).toBe(200);

    await main.getByRole('link', { name: /字体格式转换/ }).click();
    await expect(page.getByRole('heading', { level: 1, name: '字体格式转换' })).toBeVisible();
    await page.goBack();
    await main.getByRole('link', { name: /网页字体子集/ }).click();
    await expect(page.getByRole('heading', { level: 1, name: '网页字体子集' })).toBeVisible();
  });

  test('a font detail offers the hosted web-font stylesheet to copy', async ({ page, request }) => {
    await page.goto('/font/zcool-kuaile');
    const section = page.getByRole('region', { name: '网页字体' });
    await expect(section.locator('pre').first()).toContainText('/webfont/css?family=zcool-kuaile');
    await expect(section.locator('pre').nth(1)).toContainText("font-family: '站酷快乐体'");
    const css = await request.get('/webfont/css?family=zcool-kuaile&weight=400');
    expect(css.status()).toBe(200);
    expect(await css.text()).toContain('unicode-range');
    await expect(section.getByRole('button', { name: /复制/ }).first()).toBeVisible();
  });

  test('a page elsewhere that links the stylesheet draws its text in the font, fetching only the slices it needs', async ({
    page,
    baseURL,
  }) => {
    const slices: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/webfont/slice/')) slices.push(request.url());
    });
    const css = await (await page.request.get('/webfont/css?family=zcool-kuaile')).text();
    // The slices whose unicode-range holds 快 (U+5FEB) or 乐 (U+4E50): the only ones a browser should fetch.
    const needed = [...css.matchAll(/unicode-range: ([^;]+);/g)].filter(([, ranges]) =>
      (ranges ?? '').split(', ').some((range) => {
        const [from = 0, to = from] = range
          .replace('U+', '')
          .split('-')
          .map((hex) => Number.parseInt(hex, 16));
        return [0x5feb, 0x4e50].some((codePoint) => codePoint >= from && codePoint <= to);
      }),
    ).length;
    // A page on another origin, as a blog using the hosted font would be: served from 127.0.0.1
    // (the site is on localhost), both loopback so Chromium's local-network rules let it load.
    const site = new URL(baseURL ?? '');
    const blog = http.createServer((_request, response) => {
      response.setHeader('content-type', 'text/html; charset=utf-8');
      response.end(
        `<link rel="stylesheet" href="${site.origin}/webfont/css?family=zcool-kuaile">` +
          `<p style="font: 40px '站酷快乐体', sans-serif">快乐</p>`,
      );
    });
    await new Promise<void>((resolve) => blog.listen(0, '127.0.0.1', resolve));
    // A reader's browser on the blog sends no X-Forwarded-For (the suite adds one for the site's own
    // pages); the header would turn the cross-origin font fetches into preflighted requests.
    await page.context().setExtraHTTPHeaders({});
    await page.goto(`http://127.0.0.1:${(blog.address() as AddressInfo).port}/`);
    const loaded = await page.evaluate(async () => {
      await document.fonts.ready;
      await document.fonts.load("40px '站酷快乐体'", '快乐');
      return [...document.fonts].filter((face) => face.status === 'loaded').map((face) => face.family);
    });
    expect(loaded.length).toBeGreaterThan(0);
    expect(loaded.every((family) => family.replace(/['"]/g, '') === '站酷快乐体')).toBe(true);
    expect(needed).toBeGreaterThan(0);
    expect(slices.length).toBe(needed);
    blog.close();
  });
});
