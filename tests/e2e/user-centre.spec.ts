import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openLogin, registerInOpenDialog } from '../helpers/e2e-register.ts';
import { expect, test } from '../helpers/e2e-test.ts';

const EMAIL = `designer-${Date.now().toString(36)}@example.com`;
// A name whose characters the fixture fonts hold, so the PDF draws every one of them.
const LEGAL_NAME = '王大川';

test('a new designer reads a message, the badge drops, and the signed agreement downloads as a PDF', async ({
  page,
}) => {
  await page.goto('/');
  await openLogin(page);
  await registerInOpenDialog(page, EMAIL, 'ink and paper 2026');

  // The welcome message: the header badge shows it without a reload.
  const account = page.getByRole('button', { name: /的账户菜单$/ });
  await expect(account).toHaveAccessibleDescription('1 条未读消息');

  await page.goto('/user/overview');
  await expect(page.getByRole('heading', { name: '账户概览', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: /未读消息/ })).toContainText('1');
  await expect(page.getByText('未签约')).toBeVisible();
  await page.getByRole('link', { name: /欢迎加入造字联盟/ }).click();

  await expect(page.getByRole('heading', { name: '欢迎加入造字联盟', level: 1 })).toBeVisible();
  await expect(account).toHaveAccessibleDescription('');
  await page.getByRole('link', { name: '返回消息通知' }).click();
  await expect(page.getByRole('link', { name: '全部标为已读' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: '全部标为已读' })).toBeDisabled();

  // The signing form's script is held back while the name is typed, as on a slow connection: what
  // was typed before it arrived is kept.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/_astro\/SigningForm[^/]*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/user/signing', { waitUntil: 'domcontentloaded' });
  await page.getByLabel('真实姓名或工作室名称').fill(LEGAL_NAME);
  release();
  await expect(page.locator('astro-island[component-url*="SigningForm"]:not([ssr])')).toHaveCount(1);
  await expect(page.getByLabel('真实姓名或工作室名称')).toHaveValue(LEGAL_NAME);
  await page.getByLabel('署名').fill('大川');
  await page.getByRole('button', { name: '签署协议' }).click();
  await expect(page.getByRole('alert')).toHaveText('请先阅读并勾选同意协议');
  await page.getByLabel(/我已阅读并同意/).check();
  await page.getByRole('button', { name: '签署协议' }).click();

  await expect(page.getByRole('heading', { name: '你已签约' })).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: '下载协议 PDF' }).click(),
  ]);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'signed-')), 'agreement.pdf');
  await download.saveAs(file);
  const text = execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, '');
  expect(text).toContain('造字联盟');
  expect(text).toContain(LEGAL_NAME);

  // Signing is a message too, and the overview knows it.
  await expect(account).toHaveAccessibleDescription('1 条未读消息');
  await page.goto('/user/overview');
  await expect(page.getByText('已签约')).toBeVisible();
});
