import { registerInOpenDialog } from '../helpers/e2e-register.ts';
import { expect, test } from '../helpers/e2e-test.ts';
import { measurePreviews } from '../helpers/preview-metrics.ts';

// The fixture library: 思源黑体（简体） (2 weights), 马善政毛笔楷书 (书法), 站酷快乐体 (艺术).

test.describe('the font library', () => {
  test('filters, previews custom text in the fonts themselves, and opens a detail', async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto('/font');
    await page.getByRole('group', { name: '分类' }).getByRole('link', { name: /书法/ }).click();
    await expect(page).toHaveURL(/category=7/);
    await expect(page.getByRole('heading', { name: '马善政毛笔楷书' })).toBeVisible();
    await expect(page.getByRole('heading', { name: '思源黑体（简体）' })).toHaveCount(0);

    await page.getByLabel('预览文字').fill('春风又绿江南岸');
    await expect(page).toHaveURL(/text=%E6%98%A5/);
    const sample = page.locator('[data-preview-gno="ma-shan-zheng"]');
    await expect(sample).toHaveText('春风又绿江南岸');
    await page.waitForFunction(() => Number(document.documentElement.dataset['previewsLoaded']) >= 2);
    const drawn = await sample.evaluate((element) => {
      const family =
        getComputedStyle(element)
          .fontFamily.split(',')[0]
          ?.trim()
          .replace(/^['"]|['"]$/g, '') ?? '';
      const loaded = [...document.fonts].some(
        (face) => face.family.replace(/['"]/g, '') === family && face.status === 'loaded',
      );
      return { family, loaded, check: document.fonts.check(`32px '${family}'`, element.textContent ?? '') };
    });
    expect(drawn.family).toMatch(/^fa-preview-[0-9a-f]+-ma-shan-zheng$/);
    expect(drawn).toMatchObject({ loaded: true, check: true });

    await page.getByRole('link', { name: '马善政毛笔楷书' }).first().click();
    await expect(page).toHaveURL(/\/font\/ma-shan-zheng/);
    await expect(page.getByRole('heading', { level: 1, name: '马善政毛笔楷书' })).toBeVisible();
    await expect(page.getByRole('term').filter({ hasText: 'GB 2312' })).toBeVisible();
    expect(errors).toEqual([]);
  });

  test('moves at most 400 KB of font data, in the one subset answer, to draw three previews of a new text', async ({
    page,
  }) => {
    // A fresh sample text: every subset is made for this visit, as for a visitor's own text.
    const text = `测试${Date.now().toString(36)}永和九年岁在癸丑`;
    const metrics = await measurePreviews(page, `/font?text=${encodeURIComponent(text)}`);
    // Timings are the benchmark's (tests/bench/font-page.ts); here only what does not depend on the machine.
    expect(metrics.previews).toBe(3);
    expect(metrics.fonts).toBe(3);
    expect(metrics.fontBytes).toBeGreaterThan(0);
    expect(metrics.fontBytes).toBeLessThanOrEqual(400 * 1024);
    // The subset answer carries the fonts: no second round of requests before the previews draw.
    expect(metrics.fontRequests).toBe(0);
  });

  test('downloads a family as a zip named in Chinese from the download modal', async ({ page, request }) => {
    await page.goto('/font/noto-sans-sc');
    await page.getByRole('button', { name: '下载字体' }).click();
    const dialog = page.getByRole('dialog', { name: '下载思源黑体（简体）' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('listitem')).toHaveCount(3);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: '下载' }).first().click(),
    ]);
    expect(download.suggestedFilename()).toBe('思源黑体（简体）.zip');
    // A weight as WOFF2: made on the server on its first ask, then it downloads by itself.
    await dialog.getByRole('radio', { name: /WOFF2/ }).check();
    const [woff2] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: '下载' }).nth(1).click(),
    ]);
    expect(woff2.suggestedFilename()).toBe('思源黑体（简体）-Regular.woff2');
    await expect(dialog.getByText(/^WOFF2 \d/)).toBeVisible();

    const link = await (await request.get('/web/api/font/get-download-url?gno=noto-sans-sc-700')).json();
    const res = await request.get(link.data.url);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toBe('font/ttf');
    expect(res.headers()['content-disposition']).toContain(
      `filename*=UTF-8''${encodeURIComponent('思源黑体（简体）-Bold.ttf')}`,
    );
    // The first character of the signature changed to another one, whatever it was.
    const forgedUrl = link.data.url.replace(
      /signature=(.)/,
      (_: string, c: string) => `signature=${c === 'A' ? 'B' : 'A'}`,
    );
    expect(forgedUrl).not.toBe(link.data.url);
    const forged = await request.get(forgedUrl);
    expect(forged.status()).toBe(403);
  });

  test('a visitor logs in from the star, keeps two fonts, and compares them side by side', async ({ page }) => {
    await page.goto('/font');
    const star = page.getByRole('button', { name: '收藏站酷快乐体' });
    await star.click();
    await registerInOpenDialog(page, `fonts-${Date.now().toString(36)}@example.com`, 'ink and paper 2026');

    await star.click();
    await expect(page.getByText('收藏成功').first()).toBeVisible();
    await expect(star).toHaveAttribute('aria-pressed', 'true');
    await page.getByRole('button', { name: '收藏思源黑体（简体）' }).click();
    await expect(page.getByRole('button', { name: '收藏思源黑体（简体）' })).toHaveAttribute('aria-pressed', 'true');
    // Starring again after a reload keeps one entry: the star shows the stored state.
    await page.reload();
    await expect(star).toHaveAttribute('aria-pressed', 'true');

    await page.goto('/user/favorite');
    const kept = page.getByRole('region', { name: '收藏的字体' });
    await expect(kept.getByRole('link', { name: '站酷快乐体' })).toBeVisible();
    await expect(kept.getByRole('link', { name: '思源黑体（简体）' })).toBeVisible();

    // A named group: made, filled from the starred list, renamed and deleted in place. Making it
    // asks for the starred list again (the groups changed) just before the new group is shown; that
    // answer is held until the new group's is on screen, and once it lands the new group stays shown.
    const starredList = (url: URL) =>
      url.pathname.endsWith('/collection/getDetail') && url.searchParams.get('id') === '0';
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(starredList, async (route) => {
      await held;
      await route.continue();
    });
    await kept.getByLabel('新收藏夹名称').fill('标题字体');
    await kept.getByRole('button', { name: '新建' }).click();
    await expect(kept.getByRole('button', { name: /^标题字体/ })).toHaveAttribute('aria-pressed', 'true');
    await expect(kept.getByText('「标题字体」还是空的')).toBeVisible();
    const lateAnswer = page.waitForResponse((response) => starredList(new URL(response.url())));
    release();
    await (await lateAnswer).finished();
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    await expect(kept.getByText('「标题字体」还是空的')).toBeVisible();
    await expect(kept.getByRole('button', { name: '移出收藏夹' })).toHaveCount(0);
    await page.unroute(starredList);
    await kept.getByRole('button', { name: /^我的收藏/ }).click();
    await kept.getByLabel('把站酷快乐体加入收藏夹').selectOption({ label: '标题字体' });
    await expect(page.getByText('已加入收藏夹「标题字体」').first()).toBeVisible();
    await kept.getByRole('button', { name: /^标题字体/ }).click();
    await expect(kept.getByRole('link', { name: '站酷快乐体' })).toBeVisible();
    await expect(kept.getByRole('link', { name: '思源黑体（简体）' })).toHaveCount(0);
    await kept.getByRole('button', { name: '重命名' }).click();
    await kept.getByLabel('收藏夹的新名称').fill('标题用字');
    await kept.getByRole('button', { name: '保存' }).click();
    await expect(kept.getByRole('button', { name: /^标题用字/ })).toBeVisible();
    await kept.getByRole('button', { name: '删除收藏夹' }).click();
    await kept.getByRole('alert').getByRole('button', { name: '删除' }).click();
    await expect(kept.getByRole('button', { name: /^标题用字/ })).toHaveCount(0);
    await expect(kept.getByRole('button', { name: /^我的收藏/ })).toHaveAttribute('aria-pressed', 'true');
    await expect(kept.getByRole('link', { name: '站酷快乐体' })).toBeVisible();

    await page.goto('/font/zcool-kuaile');
    await page.getByRole('button', { name: '把站酷快乐体加入对比' }).click();
    await page.goto('/font/noto-sans-sc');
    await page.getByRole('button', { name: '把思源黑体（简体）加入对比' }).click();
    await page.goto('/user/compare');
    await expect(page.getByRole('article', { name: '站酷快乐体' })).toBeVisible();
    await expect(page.getByRole('article', { name: '思源黑体（简体）' })).toBeVisible();
    await page.getByLabel('对比文字').fill('天地玄黄');
    await expect(page.getByRole('article', { name: '站酷快乐体' })).toContainText('天地玄黄');
    await expect(page.getByRole('article', { name: '思源黑体（简体）' })).toContainText('天地玄黄');

    await page.goto('/font');
    await star.click();
    await expect(page.getByText('已取消收藏').first()).toBeVisible();
    await expect(star).toHaveAttribute('aria-pressed', 'false');
  });

  test('adds two fonts to the compare list and removes one, with SPEC’s messages', async ({ page }) => {
    await page.goto('/font');
    await page.getByRole('button', { name: '把思源黑体（简体）加入对比' }).click();
    await expect(page.getByText('已加入字体对比').first()).toBeVisible();
    await page.getByRole('button', { name: '把站酷快乐体加入对比' }).click();
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('compareFonts') ?? '[]'));
    expect(stored.map((font: { id: string }) => font.id)).toEqual(['noto-sans-sc', 'zcool-kuaile']);
    await expect(page.getByRole('button', { name: '把站酷快乐体加入对比' })).toHaveAttribute('aria-pressed', 'true');
    await page.reload();
    await expect(page.getByRole('button', { name: '把站酷快乐体加入对比' })).toHaveAttribute('aria-pressed', 'true');
    await page.getByRole('button', { name: '把站酷快乐体加入对比' }).click();
    await expect(page.getByText('已从字体对比中移除').first()).toBeVisible();
    const left = await page.evaluate(() => JSON.parse(localStorage.getItem('compareFonts') ?? '[]'));
    expect(left.map((font: { id: string }) => font.id)).toEqual(['noto-sans-sc']);

    // The tray keeps the list in sight on every page and leads a visitor, no login needed, to the comparison.
    const tray = page.getByRole('complementary', { name: '字体对比' });
    await expect(tray).toContainText('1款字体待对比');
    await page.goto('/help');
    await tray.getByRole('link').click();
    // The comparison's address names its fonts, so it can be shared as it is.
    await expect(page).toHaveURL(/\/user\/compare\?fonts=noto-sans-sc$/);
    await expect(page.getByRole('heading', { level: 1, name: '字体对比' })).toBeVisible();
    await expect(page.getByText('思源黑体（简体）').first()).toBeVisible();
    await expect(tray).toBeHidden();
  });
});

test('text typed and the size chosen on the library follow the visitor to a font’s page', async ({ page }) => {
  await page.goto('/font');
  const sample = page.getByRole('textbox', { name: '预览文字' });
  await sample.fill('造字联盟');
  await expect(page).toHaveURL(/text=/);
  await page.getByRole('link', { name: '思源黑体（简体）', exact: true }).first().click();
  // The page's address then carries the text too, so it can be shared as it is seen.
  await expect(page).toHaveURL(/\/font\/noto-sans-sc\?text=/);
  await expect(page.getByRole('textbox', { name: '预览文字' })).toHaveValue('造字联盟');
  await expect(page.locator('.specimen')).toHaveText('造字联盟');
});

test('a character a font lacks is boxed and counted in its preview, not drawn in another font', async ({ page }) => {
  await page.goto('/font');
  await page.getByRole('textbox', { name: '预览文字' }).fill('永龘');
  const card = page.locator('[data-preview-gno="noto-sans-sc"][data-sample]').first();
  await expect(card).toHaveText('永龘');
  await expect(card.locator('.glyph-missing')).toHaveText('龘');
  await expect(card).toHaveAttribute('data-missing', '缺 1 字');
  await page.getByRole('textbox', { name: '预览文字' }).fill('永和');
  await expect(card).toHaveText('永和');
  await expect(card.locator('.glyph-missing')).toHaveCount(0);
  await expect(card).not.toHaveAttribute('data-missing');
});

test('on a phone the first font is on the first screen, the filters fold under one line, and empty values lead nowhere', async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto('/font');
  const first = page.locator('.font-item').first();
  await expect(first).toBeVisible();
  const box = await first.boundingBox();
  expect(box?.y ?? 9999).toBeLessThan(812 - 60);
  const filters = page.getByRole('group', { name: '分类' });
  await expect(filters).toBeHidden();
  await page.locator('summary', { hasText: '筛选' }).click();
  await expect(filters).toBeVisible();
  // The fixture library has no 楷体: the value is shown, greyed, but is not a link to an empty list.
  await expect(filters.getByRole('link', { name: /楷体/ })).toHaveCount(0);
  await expect(filters.getByText('楷体')).toHaveAttribute('aria-disabled', 'true');
  await filters.getByRole('link', { name: /书法/ }).click();
  await expect(page.getByText('已选 1 项')).toBeVisible();
});
