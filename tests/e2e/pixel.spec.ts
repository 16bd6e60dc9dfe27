import fs from 'node:fs';
import { expect, test } from '../helpers/e2e-test.ts';

test('pick a font, preview it as pixels, redraw a glyph, generate the font and download it', async ({ page }) => {
  await page.goto('/tools/pixel');
  await page.getByLabel('搜索字体库').fill('思源黑体');
  await page
    .getByRole('radio', { name: /思源黑体/ })
    .first()
    .check();

  const preview = page.getByRole('img', { name: /像素字预览/ });
  await expect(preview).toBeVisible();
  const before = await preview.getAttribute('src');

  // Keyboard: open 字, move one cell right and toggle it.
  await page.getByRole('button', { name: '字', exact: true }).click();
  const grid = page.getByRole('group', { name: /「字」的像素/ });
  await expect(grid).toBeVisible();
  const first = grid.getByRole('button', { name: '第 1 行第 1 列' });
  await first.focus();
  await page.keyboard.press('ArrowRight');
  await expect(grid.getByRole('button', { name: '第 1 行第 2 列' })).toBeFocused();
  const cell = grid.getByRole('button', { name: '第 1 行第 2 列' });
  const pressed = await cell.getAttribute('aria-pressed');
  await page.keyboard.press('Space');
  await expect(cell).toHaveAttribute('aria-pressed', pressed === 'true' ? 'false' : 'true');
  await expect(page.getByText('已修改', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: '字 （已修改）' })).toBeVisible();
  // The preview is drawn again with the edit.
  await expect.poll(() => preview.getAttribute('src')).not.toBe(before);
  // Undo brings the glyph back, redo the edit.
  await page.getByRole('button', { name: '撤销' }).click();
  await expect(cell).toHaveAttribute('aria-pressed', pressed ?? 'false');
  await page.getByRole('button', { name: '重做' }).click();
  await expect(cell).toHaveAttribute('aria-pressed', pressed === 'true' ? 'false' : 'true');

  await page.getByLabel('字体名称').fill('联盟像素黑');
  await page.getByRole('button', { name: '生成像素字体' }).click();
  const result = page.getByRole('region', { name: '生成结果' });
  await expect(result.getByText(/「联盟像素黑」共 \d+ 个字/)).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    result.getByRole('link', { name: /下载.*\.ttf/ }).click(),
  ]);
  const bytes = fs.readFileSync(await download.path());
  expect(bytes.readUInt32BE(0)).toBe(0x00010000);
  expect(bytes.includes(Buffer.from('联盟像素黑', 'utf16le').swap16())).toBe(true);
});
