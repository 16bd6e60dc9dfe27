import type { Page } from '@playwright/test';
import { expect, test } from '../helpers/e2e-test.ts';

// The library and a font's page as a type tester, as a designer uses them. The fixture library:
// 思源黑体（简体） (400 and 700), 马善政毛笔楷书 (书法) and 站酷快乐体 (艺术), cut to a few hundred
// characters and without the full-width comma.

/** Waits until the previews asked for since `after` are drawn in their own faces. */
async function previewsDrawn(page: Page, after = 0): Promise<void> {
  await page.waitForFunction((run) => Number(document.documentElement.dataset['previewsLoaded'] ?? 0) > run, after);
}
const drawnRun = (page: Page) => page.evaluate(() => Number(document.documentElement.dataset['previewsLoaded'] ?? 0));

test('each face shows a sample of its own script that it has, and only a typed text marks what is missing', async ({
  page,
}) => {
  await page.goto('/font');
  await previewsDrawn(page);
  // Every family on the page (the fixtures, and a font the submission journey may have published).
  const total = Number(await page.locator('.library__count strong').textContent());
  const samples = page.locator('[data-row-sample]');
  await expect(samples).toHaveCount(total);
  for (const sample of await samples.all()) {
    await expect(sample).not.toHaveAttribute('data-missing');
    await expect(sample).toHaveAttribute('lang', 'zh-Hans');
    expect((await sample.textContent())?.trim().length).toBeGreaterThan(4);
  }
  await expect(page.locator('[data-missing-badge]:visible')).toHaveCount(0);

  // A typed text still marks what a face lacks; the count sits beside the name, where a long
  // sample cannot cut it off.
  const before = await drawnRun(page);
  await page.getByRole('textbox', { name: '预览文字' }).fill(`永和九年龘${'永和九年'.repeat(12)}`);
  await previewsDrawn(page, before);
  const row = page.locator('[data-font-row="noto-sans-sc"]');
  const badge = row.locator('[data-missing-badge]');
  await expect(badge).toHaveText('缺 1 字：龘');
  const [badgeBox, rowBox] = await Promise.all([badge.boundingBox(), row.boundingBox()]);
  expect(badgeBox && rowBox && badgeBox.x + badgeBox.width <= rowBox.x + rowBox.width).toBe(true);
  expect(await badge.evaluate((element) => element.scrollWidth <= element.clientWidth + 1)).toBe(true);
  await expect(row.locator('.glyph-missing')).toHaveText('龘');
});

test('an album draws each family in a line it has, as the library does', async ({ page }) => {
  // 站酷快乐体 lacks the full-width comma: a fixed line marked it 「缺 1 字」 on every album it is in.
  const list = await (await page.request.get('/album')).text();
  const albums = [...new Set(list.match(/\/album\/\d+(?=")/g) ?? [])];
  let album: string | undefined;
  for (const path of albums) {
    if ((await (await page.request.get(path)).text()).includes('data-preview-gno="zcool-kuaile"')) {
      album = path;
      break;
    }
  }
  expect(album, 'an album with 站酷快乐体').toBeTruthy();
  await page.goto(album ?? '/album');
  await previewsDrawn(page);
  const samples = page.locator('.font-row__sample');
  expect(await samples.count()).toBeGreaterThan(0);
  for (const sample of await samples.all()) {
    expect(await sample.evaluate((element) => element.style.fontFamily)).not.toBe('');
    await expect(sample).not.toHaveAttribute('data-missing');
  }
});

test('the tester’s settings live in the address, come back on reload, and 竖排 sets the samples top to bottom', async ({
  page,
}) => {
  await page.goto('/font');
  await previewsDrawn(page);
  const panel = page.locator('[data-tester-panel]');
  await expect(panel).toHaveAttribute('open', '');
  await panel.locator('label', { hasText: '竖排' }).click();
  await panel.locator('label', { hasText: '居中' }).click();
  await panel.getByRole('slider', { name: /行高/ }).fill('2');
  await panel.getByRole('slider', { name: /字距/ }).fill('0.1');
  await panel.getByLabel('文字颜色').fill('#8a1c1c');
  await panel.getByLabel('背景颜色').fill('#f6efe0');
  await page.getByRole('slider', { name: /字号/ }).fill('48');
  await expect(page).toHaveURL(/dir=v/);
  await expect(page).toHaveURL(/align=center/);
  await expect(page).toHaveURL(/lh=2/);
  await expect(page).toHaveURL(/ls=0\.1/);
  await expect(page).toHaveURL(/fg=8a1c1c/);
  await expect(page).toHaveURL(/bg=f6efe0/);
  await expect(page).toHaveURL(/px=48/);

  const sample = page.locator('[data-font-row="noto-sans-sc"] .font-item__sample');
  const drawn = () =>
    sample.evaluate((element) => {
      const style = getComputedStyle(element);
      return {
        writingMode: style.writingMode,
        textAlign: style.textAlign,
        lineHeight: style.lineHeight,
        letterSpacing: style.letterSpacing,
        fontSize: style.fontSize,
        color: style.color,
        background: style.backgroundColor,
      };
    });
  const expected = {
    writingMode: 'vertical-rl',
    textAlign: 'center',
    lineHeight: '96px',
    letterSpacing: '4.8px',
    fontSize: '48px',
    color: 'rgb(138, 28, 28)',
    background: 'rgb(246, 239, 224)',
  };
  expect(await drawn()).toEqual(expected);
  // The sample runs down the page: taller than wide, as a column of 竖排 is.
  const box = await page.locator('[data-row-sample="noto-sans-sc"]').boundingBox();
  expect(box && box.height > box.width).toBe(true);

  await page.reload();
  await expect(panel.getByRole('radio', { name: '竖排', exact: true })).toBeChecked();
  await expect(panel.getByRole('slider', { name: /行高/ })).toHaveValue('2');
  expect(await drawn()).toEqual(expected);
});

test('a row takes a weight of its own, drawn in that weight’s face, and the address keeps it', async ({ page }) => {
  await page.goto('/font');
  await previewsDrawn(page);
  const before = await drawnRun(page);
  await page.getByRole('combobox', { name: '思源黑体（简体）的预览字重' }).selectOption({ label: '粗体 700' });
  await expect(page).toHaveURL(/w=noto-sans-sc%3A700/);
  const sample = page.locator('[data-row-sample="noto-sans-sc"]');
  await expect(sample).toHaveAttribute('data-preview-gno', 'noto-sans-sc-700');
  await previewsDrawn(page, before);
  const family = await sample.evaluate((element) =>
    getComputedStyle(element).fontFamily.split(',')[0]?.replace(/['"]/g, ''),
  );
  expect(family).toMatch(/-noto-sans-sc-700$/);
  // The other rows keep their regular faces.
  await expect(page.locator('[data-row-sample="zcool-kuaile"]')).toHaveAttribute('data-preview-gno', 'zcool-kuaile');
  await page.reload();
  await expect(page.getByRole('combobox', { name: '思源黑体（简体）的预览字重' })).toHaveValue('700');
  await expect(sample).toHaveAttribute('data-preview-gno', 'noto-sans-sc-700');
});

test('on a phone, filters apply in place: no reload, the filter sheet stays open and the page stays where it was', async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 667 });
  await page.goto('/font');
  // The first font's sample is on the first screen.
  const first = page.locator('.font-item__sample').first();
  const firstBox = await first.boundingBox();
  expect(firstBox && firstBox.y + firstBox.height).toBeLessThanOrEqual(667);

  await page.evaluate(() => {
    (window as unknown as { stayed: boolean }).stayed = true;
  });
  await page.locator('summary', { hasText: '筛选' }).click();
  const sheet = page.locator('[data-library-sheet]');
  await expect(sheet).toHaveAttribute('open', '');
  const filters = page.getByRole('group', { name: '分类' });
  await filters.getByRole('link', { name: /书法/ }).scrollIntoViewIfNeeded();
  const scrolled = await page.evaluate(() => window.scrollY);
  await filters.getByRole('link', { name: /书法/ }).click();
  await expect(page).toHaveURL(/category=7/);
  await expect(page.getByRole('heading', { name: '思源黑体（简体）' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: '马善政毛笔楷书' })).toBeVisible();
  await expect(filters.getByRole('link', { name: /书法/ })).toHaveAttribute('aria-current', 'true');
  await expect(sheet).toHaveAttribute('open', '');
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
  expect(Math.abs((await page.evaluate(() => window.scrollY)) - scrolled)).toBeLessThanOrEqual(2);
  await expect(page.getByText('已选 1 项')).toBeVisible();

  // Back shows the whole library again, still without a reload.
  await page.goBack();
  await expect(page).not.toHaveURL(/category=/);
  await expect(page.getByRole('heading', { name: '思源黑体（简体）' })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
});

test('the glyph table opens on 常用 3500 in its own order, finds a character, and zooms it with its metrics', async ({
  page,
}) => {
  await page.goto('/font/noto-sans-sc');
  const table = page.locator('#glyphs');
  await expect(table.getByRole('heading', { name: /字符表/ })).toContainText('常用 3500');
  await expect(table.getByRole('link', { name: '常用 3500' })).toHaveAttribute('aria-current', 'true');
  const grid = table.locator('[data-glyph-grid] button');
  await expect(grid.first()).toHaveText('一');
  await expect(grid.nth(1)).toHaveText('乙');

  await table.getByLabel('有没有这个字？').fill('永龘');
  await table.getByRole('button', { name: '查一查' }).click();
  const answer = table.locator('[data-glyph-answer]');
  await expect(answer.getByRole('button', { name: '永：有，放大看' })).toBeVisible();
  await expect(answer.getByRole('button', { name: '龘：没有，放大看' })).toBeVisible();
  const zoom = table.getByRole('complementary', { name: '字形放大' });
  await expect(zoom).toContainText('U+6C38');
  await expect(zoom).toContainText('字宽');
  await expect(zoom.locator('svg path')).toHaveCount(1);
  await answer.getByRole('button', { name: '龘：没有，放大看' }).click();
  await expect(zoom).toContainText('这款字体没有「龘」');

  // The grid is one stop for the keyboard; the arrows move through it.
  await grid.first().focus();
  await page.keyboard.press('ArrowRight');
  await expect(grid.nth(1)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(zoom).toContainText('U+4E59');
});

test('a pasted text narrows the library to the faces that have all of it, or lists what each lacks', async ({
  page,
  request,
}) => {
  // What the library holds is read from the coverage answer itself. The submission journey, running beside
  // this one, may publish a family at any moment, so the page is judged between two readings: every family
  // that answered before is shown, and every family shown answers after.
  type Coverage = { data: { families: Array<{ fontGNo: string; lacks: number; missing: string }> } };
  const coverage = async (text: string) =>
    ((await (await request.post('/web/api/font/coverage', { data: { text } })).json()) as Coverage).data.families;
  const gnos = (families: Array<{ fontGNo: string }>) => families.map((family) => family.fontGNo);
  const havingAll = async () => gnos((await coverage('永和九年')).filter((family) => family.lacks === 0));
  const rows = page.locator('[data-font-row]');
  const shown = () => rows.evaluateAll((found) => found.map((row) => row.getAttribute('data-font-row') ?? ''));
  /** The list shows the families that have all four characters, as many as `note` says. */
  async function expectNarrowed(note: ReturnType<typeof page.locator>, before: string[]) {
    await expect(note).toContainText(/\d+ 款字体包含全部 4 个字/);
    const count = Number(/(\d+) 款字体包含全部 4 个字/.exec((await note.textContent()) ?? '')?.[1]);
    await expect(rows).toHaveCount(count);
    expect(await shown()).toEqual(expect.arrayContaining(before));
    expect(await havingAll()).toEqual(expect.arrayContaining(await shown()));
  }

  const lacking = await coverage('永和九年龘');
  const having = await havingAll();
  expect(lacking.every((family) => family.lacks > 0)).toBe(true);
  expect(having.length).toBeGreaterThanOrEqual(3);
  await page.goto('/font');
  const filter = page.getByRole('region', { name: '包含这些字' });
  await filter.getByLabel('要包含的文字').fill('永和九年\n龘');
  await filter.getByRole('button', { name: '按文字筛选' }).click();
  await expect(filter.getByRole('status')).toContainText('没有字体包含全部 5 个字');
  await expect(rows).toHaveCount(0);
  await expect(page).toHaveURL(/hasmode=all/);

  await filter.getByText('列出全部，按缺字数排', { exact: true }).click();
  await expect.poll(async () => (await shown()).length).toBeGreaterThanOrEqual(lacking.length);
  expect(await shown()).toEqual(expect.arrayContaining(gnos(lacking)));
  expect(gnos(await coverage('永和九年龘'))).toEqual(expect.arrayContaining(await shown()));
  for (const family of lacking)
    await expect(page.locator(`[data-font-row="${family.fontGNo}"] [data-contains-badge]`)).toHaveText(
      `缺 ${family.lacks} 字：${family.missing}`,
    );

  await filter.getByLabel('要包含的文字').fill('永和九年');
  await filter.getByText('只看全部包含的', { exact: true }).click();
  await filter.getByRole('button', { name: '按文字筛选' }).click();
  await expectNarrowed(filter.getByRole('status'), having);
  // The address holds the text, so the narrowed list can be shared and comes back on reload.
  await expect(page).toHaveURL(/has=%E6%B0%B8/);
  await page.reload();
  await expectNarrowed(page.locator('[data-contains-note]'), having);

  await filter.getByRole('button', { name: '清除' }).click();
  await expect(page).not.toHaveURL(/has=/);
  await expect(page.locator('[data-contains-note]')).toBeHidden();

  // Back brings the narrowed list and its text back in place; forward clears them again.
  await page.evaluate(() => {
    (window as unknown as { stayed: boolean }).stayed = true;
  });
  await page.goBack();
  await expect(page).toHaveURL(/has=%E6%B0%B8/);
  await expectNarrowed(page.locator('[data-contains-note]'), having);
  await expect(filter.getByLabel('要包含的文字')).toHaveValue('永和九年');
  await page.goForward();
  await expect(page).not.toHaveURL(/has=/);
  await expect(page.locator('[data-contains-note]')).toBeHidden();
  await expect(filter.getByLabel('要包含的文字')).toHaveValue('');
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
});
