import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { expect, test } from '../helpers/e2e-test.ts';
import { drawTextPicture, fixtureFont, registerTestFont } from '../helpers/identify.ts';

const TEXT = '永和九年';

/** A photo-like JPEG of the text in the fixture Noto Sans SC Bold. */
async function textPhoto(): Promise<Buffer> {
  const family = registerTestFont(fixtureFont('noto-sans-sc', 'NotoSansSC_700Bold.ttf'));
  const { gray } = drawTextPicture({ lines: [TEXT], family, size: 64 });
  return sharp(gray.data, { raw: { width: gray.width, height: gray.height, channels: 1 } })
    .jpeg({ quality: 75 })
    .toBuffer();
}

async function toolReady(page: Page): Promise<void> {
  await expect(page.locator('astro-island[opts*="IdentifyTool"]')).not.toHaveAttribute('ssr', /.*/);
}

const boxes = (page: Page) => page.getByRole('button', { name: /^第 \d+ 个字框/ });
const characters = (page: Page) => page.getByRole('textbox', { name: /^第 \d+ 个字$/ });

test('upload a picture, crop it, confirm the characters and open the font the library matches', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 1000 });
  await page.goto('/tools/unidentifiedBody');
  await toolReady(page);
  await page
    .getByLabel('选择图片')
    .setInputFiles({ name: 'photo.jpg', mimeType: 'image/jpeg', buffer: await textPhoto() });

  // Crop by dragging over the picture, leaving a little margin around the text.
  const stage = page.getByRole('img', { name: '上传的图片' });
  await expect(stage).toBeVisible();
  const area = await stage.boundingBox();
  if (!area) throw new Error('the picture has no box');
  await page.mouse.move(area.x + 4, area.y + 4);
  await page.mouse.down();
  await page.mouse.move(area.x + area.width - 4, area.y + area.height - 4, { steps: 5 });
  await page.mouse.up();
  await expect(page.getByRole('slider', { name: /裁剪区域/ })).toBeVisible();
  await expect(page.getByText(/^裁剪 \d+ × \d+ 像素/)).toBeVisible();
  await page.screenshot({ path: 'test-results/shots/identify-crop-1440.png', fullPage: true });

  await page.getByRole('button', { name: '找出文字' }).click();
  await expect(boxes(page)).toHaveCount(4);
  await expect(characters(page)).toHaveCount(4);
  for (const [i, character] of [...TEXT].entries()) await expect(characters(page).nth(i)).toHaveValue(character);

  // Split the first box, then merge the halves back: the reader names the whole glyph again.
  await boxes(page).first().click();
  await page.getByRole('button', { name: '拆成两个' }).click();
  await expect(boxes(page)).toHaveCount(5);
  await boxes(page).first().focus();
  await page.getByRole('button', { name: '与后一个合并' }).click();
  await expect(boxes(page)).toHaveCount(4);
  await expect(characters(page).first()).toHaveValue('永');
  // A box added by mistake is dropped from the keyboard.
  await page.getByRole('button', { name: '添加字框' }).click();
  await expect(boxes(page)).toHaveCount(5);
  await boxes(page).last().focus();
  await page.keyboard.press('Delete');
  await expect(boxes(page)).toHaveCount(4);
  // The person corrects a character (here: types the same one again, as a confirmation).
  await characters(page).nth(2).fill('九');

  await page.getByRole('button', { name: '查找字体' }).click();
  const results = page.getByRole('region', { name: '候选字体' });
  await expect(results.getByRole('listitem').first()).toBeVisible();
  const best = results.getByRole('listitem').first();
  await expect(best.getByRole('heading')).toContainText('思源黑体');
  await expect(best.getByRole('heading')).toContainText('Bold');
  await expect(best).toContainText('可免费商用');
  await expect(best.locator('[data-preview-gno]')).toHaveText(TEXT);
  await expect(best.getByRole('button', { name: /加入对比/ })).toBeVisible();
  await page.screenshot({ path: 'test-results/shots/identify-results-1440.png', fullPage: true });

  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: 'test-results/shots/identify-results-375.png', fullPage: true });

  await best.getByRole('link', { name: '查看字体' }).click();
  await expect(page).toHaveURL(/\/font\/noto-sans-sc$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('思源黑体');
});

test('a file that is not a picture gets a clear message', async ({ page }) => {
  await page.goto('/tools/unidentifiedBody');
  await toolReady(page);
  await page
    .getByLabel('选择图片')
    .setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not a picture at all') });
  await expect(page.getByRole('alert')).toContainText('无法读取这张图片');
});

test('a screenshot pasted from the clipboard is taken as the picture', async ({ page }) => {
  await page.goto('/tools/unidentifiedBody');
  await toolReady(page);
  const bytes = [...(await textPhoto())];
  await page.evaluate((data) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([new Uint8Array(data)], 'screenshot.jpg', { type: 'image/jpeg' }));
    document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true }));
  }, bytes);
  await expect(page.getByRole('img', { name: '上传的图片' })).toBeVisible();
  await page.getByRole('button', { name: '找出文字' }).click();
  await expect(boxes(page)).toHaveCount(4);
});

test('a picture of a font the library lacks is answered as such, with the closest fonts', async ({ page }) => {
  // Noto Serif SC is not in the test library (its sans sibling, a brush face and a round face are).
  const family = registerTestFont('tests/fixtures/document-fonts/noto-serif-sc/NotoSerifSC_400Regular.ttf');
  const { gray } = drawTextPicture({ lines: ['天下太平'], family, size: 64 });
  const photo = await sharp(gray.data, { raw: { width: gray.width, height: gray.height, channels: 1 } })
    .jpeg({ quality: 75 })
    .toBuffer();
  for (const width of [1440, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/tools/unidentifiedBody');
    await toolReady(page);
    await page.getByLabel('选择图片').setInputFiles({ name: 'photo.jpg', mimeType: 'image/jpeg', buffer: photo });
    await page.getByRole('button', { name: '找出文字' }).click();
    await expect(boxes(page)).toHaveCount(4);
    for (const [i, character] of [...'天下太平'].entries()) await characters(page).nth(i).fill(character);
    await page.getByRole('button', { name: '查找字体' }).click();
    const results = page.getByRole('region', { name: '库中没有完全一致的字体' });
    await expect(results).toBeVisible();
    await expect(results).toContainText('这款字体可能还没有收录');
    await expect(results.getByRole('listitem').first()).toBeVisible();
    await results.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/shots/identify-absent-${width}.png`, fullPage: true });
  }
});
