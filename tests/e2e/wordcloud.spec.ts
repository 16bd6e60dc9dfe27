import fs from 'node:fs';
import { expect, test } from '../helpers/e2e-test.ts';

test('the sample cloud paints before any script runs, from the page’s own HTML', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL: baseURL ?? '', javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/tools/wordcloud');
  const sample = page.getByRole('img', { name: /词云预览：示例文字/ });
  await expect(sample).toBeVisible();
  // Decoded: the server drew it, it is not a broken image.
  await expect.poll(() => sample.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
  expect(await sample.evaluate((image: HTMLImageElement) => image.currentSrc)).toMatch(/\/sample\.webp(\?w=\d+)?$/);
  await context.close();

  // A phone loads the picture at the width it shows, not the full drawing.
  const phone = await browser.newContext({ baseURL: baseURL ?? '', viewport: { width: 375, height: 667 } });
  const small = (await phone.newPage()).getByRole('img', { name: /词云预览/ });
  await small.page().goto('/tools/wordcloud');
  await expect.poll(() => small.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
  expect(await small.evaluate((image: HTMLImageElement) => image.currentSrc)).toMatch(/\/sample\.webp\?w=640$/);
  await phone.close();
});

test('paste text, pick a shape and a font, see the cloud, and download it as PNG and SVG', async ({ page }) => {
  // Five drawings and two downloads; on two cores shared with the unit suite each can take seconds.
  await page.goto('/tools/wordcloud');
  const text = `${'人民 文化 历史 艺术 市场 中心 水平 人才 '.repeat(6)}文化 艺术 文化`;
  // A paste replaces the selection in one step. Playwright's fill() selects, then inserts in a second
  // step; when the island hydrates between the two, React rewrites the field's default text, the
  // selection collapses and the text lands in front of the sample.
  await page.getByLabel(/粘贴文字/).evaluate((field: HTMLTextAreaElement, pasted) => {
    field.focus();
    field.select();
    document.execCommand('insertText', false, pasted);
  }, text);
  await expect(page.getByLabel(/粘贴文字/)).toHaveValue(text);
  // The choices are radio buttons drawn as tabs and tiles; a person clicks what they see.
  await page.getByText('自然', { exact: true }).click();
  await page.getByText('云朵', { exact: true }).click();
  await expect(page.getByRole('radio', { name: '云朵' })).toBeChecked();
  await page.getByLabel('搜索字体库').fill('站酷快乐体');
  await page
    .getByRole('radio', { name: /站酷快乐体/ })
    .first()
    .check();

  // The first picture may come from the text alone, before the font was picked; the test waits for the
  // drawing of what it asked for, which takes seconds on a busy machine.
  const drawn = page.locator('.wordcloud__preview:not([aria-busy])');
  await expect(drawn.getByRole('img', { name: /词云预览：文化、艺术/ })).toBeVisible();
  const preview = page.getByRole('img', { name: /词云预览/ });
  await expect(page.getByText('已排入 8 个词。')).toBeVisible();
  // A word typed into the list joins the cloud as its strongest word.
  await page.getByText(/查看和调整词表/).click();
  await page.getByLabel('添加一个词').fill('造字联盟');
  await page.getByRole('button', { name: '加入词表' }).click();
  await expect(page.getByText('已排入 9 个词。')).toBeVisible();
  await expect(drawn.getByRole('img', { name: /词云预览：造字联盟、文化/ })).toBeVisible();
  const first = await preview.getAttribute('src');
  await page.getByRole('button', { name: '换一种排列' }).click();
  await expect.poll(() => preview.getAttribute('src')).not.toBe(first);

  const [png] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: '下载 PNG' }).click(),
  ]);
  expect(png.suggestedFilename()).toBe('词云.png');
  expect(
    fs
      .readFileSync(await png.path())
      .subarray(1, 4)
      .toString(),
  ).toBe('PNG');
  const [svg] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: '下载 SVG（文字可编辑）' }).click(),
  ]);
  const body = fs.readFileSync(await svg.path(), 'utf8');
  expect(body).toContain('<svg');
  // Words stay text (a column's characters are spans of one text element).
  const texts = [...body.matchAll(/<text[^>]*>(.*?)<\/text>/g)].map((match) => match[1]?.replace(/<[^>]+>/g, ''));
  expect(texts).toEqual(expect.arrayContaining(['造字联盟', '文化', '艺术']));
  // The family is named beside the embedded face, so design tools find the installed font.
  expect(body).toMatch(/font-family:'cloud-face', '(ZCOOL KuaiLe|站酷快乐体)'/);
});

test('text pasted while the tool is still waking up is kept', async ({ page }) => {
  // Astro drops the island's `ssr` mark as soon as React's hydration is scheduled; React then
  // hydrates in a later task. A paste in that gap is the one a person makes while the page settles:
  // the observer pastes exactly there, before React has put its own text back into the field.
  const text = '造字联盟 字体 设计 字体 设计 字体';
  await page.addInitScript((pasted) => {
    new MutationObserver((changes, observer) => {
      for (const change of changes) {
        const island = change.target as Element;
        if (island.hasAttribute('ssr')) continue;
        const field = island.querySelector<HTMLTextAreaElement>('[data-early-input="wordcloud-text"]');
        if (!field) continue;
        observer.disconnect();
        field.value = pasted;
        field.dispatchEvent(new Event('input', { bubbles: true }));
      }
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ['ssr'] });
  }, text);
  await page.goto('/tools/wordcloud');
  await expect(page.getByText(`${text.length} / 50,000`)).toBeVisible();
  await expect(page.getByLabel(/粘贴文字/)).toHaveValue(text);
});

test('a button pressed before the tool’s script arrives counts once it does', async ({ page }) => {
  // The island's script is held back, as on a slow connection: the page is drawn, the tool is not
  // awake, and a person already picks a canvas size.
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/_astro\/.+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  // Module scripts hold DOMContentLoaded back: the page is there once its HTML is.
  await page.goto('/tools/wordcloud', { waitUntil: 'commit' });
  const banner = page.getByRole('button', { name: '横幅 1920 × 1080' });
  await expect(page.locator('astro-island[ssr]').first()).toBeAttached();
  await banner.click();
  await expect(banner).toHaveAttribute('aria-busy', 'true');
  release();
  await expect(banner).toHaveAttribute('aria-pressed', 'true');
  await expect(banner).not.toHaveAttribute('aria-busy');
  await expect(page.getByRole('spinbutton', { name: '宽' })).toHaveValue('1920');
});
