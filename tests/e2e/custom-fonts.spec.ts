import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from '@playwright/test';
import { violations } from '../helpers/axe.ts';
import { registeredPage } from '../helpers/e2e-register.ts';
import { expect, test } from '../helpers/e2e-test.ts';
import { specimenPng } from '../helpers/submissions.ts';

// Two people, two browsers: a client reads /dingzhi and sends a request with an attachment; an
// editor (EDITOR_ACCOUNTS in playwright.config.ts) finds it in the queue, marks it contacted and
// quotes; the client sees the stage, the quote and the messages.

const CLIENT = `client-${Date.now().toString(36)}@example.com`;
const EDITOR = 'service-editor@example.com';
const PASSWORD = 'ink and paper 2026';

const signedIn = (browser: Browser, email: string) => registeredPage(browser, email, PASSWORD);

test('a custom-font request goes from the client’s form to a quote and back', async ({ browser }) => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'dingzhi-'));
  const logo = path.join(folder, '标志.png');
  fs.writeFileSync(logo, await specimenPng());
  const organisation = `青禾茶饮${Date.now().toString(36)}`;

  const client = await signedIn(browser, CLIENT);
  await client.goto('/dingzhi');
  await expect(client.getByRole('heading', { name: '流程' })).toBeVisible();
  await expect(client.getByRole('link', { name: '提交定制需求' }).first()).toHaveAttribute('href', '/dingzhi/apply');

  // The form's script is held back while the first fields are typed, as on a slow connection: what
  // was typed before it arrived is kept.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await client.route(/\/_astro\/RequestForm[^/]*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await client.goto('/dingzhi/apply', { waitUntil: 'domcontentloaded' });
  await expect(client.getByRole('heading', { name: '提交定制需求', level: 1 })).toBeVisible();
  await client.getByLabel('机构/公司名称').fill(organisation);
  await client.getByLabel('联系人').fill('周宁');
  release();
  await expect(client.locator('astro-island[component-url*="RequestForm"]:not([ssr])')).toHaveCount(1);
  await expect(client.getByLabel('机构/公司名称')).toHaveValue(organisation);
  await expect(client.getByLabel('联系人')).toHaveValue('周宁');
  // The account's e-mail fills the form; a deadline in the past is refused before sending.
  await expect(client.getByLabel('邮箱')).toHaveValue(CLIENT);
  await client.getByLabel('定制类型').selectOption('brand');
  await client.getByLabel('字符集').selectOption('gb2312');
  await client.getByLabel('字重数量').fill('3');
  await client.getByLabel('预算范围').selectOption('80k-200k');
  await client
    .getByLabel('需求描述')
    .fill('为门店菜单、包装和线上广告定制一套品牌黑体，笔画圆润，与现有标志的弧度一致。');
  await client.getByLabel('期望交付日期（选填）').fill('2020-01-01');
  await client.getByRole('button', { name: '提交需求' }).click();
  await expect(client.getByText('期望交付日期应晚于今天')).toBeVisible();
  await client.getByLabel('期望交付日期（选填）').fill('');
  await client.getByLabel('附件（选填）').setInputFiles(logo);
  await expect(client.getByText('已上传')).toBeVisible();
  expect(await violations(client)).toEqual([]);
  await client.getByRole('button', { name: '提交需求' }).click();

  await expect(client.getByRole('heading', { name: organisation, level: 1 })).toBeVisible();
  await expect(client.getByText('待联系', { exact: true })).toBeVisible();
  await expect(client.getByText('标志.png')).toBeVisible();
  // The requester sees the file's name; only editors get a link to it.
  await expect(client.getByRole('link', { name: '标志.png' })).toHaveCount(0);
  const requestUrl = client.url();

  // The editor finds it in the queue, marks it contacted, then quotes. The requester's own page is
  // not for anyone else, an editor included: they work in the editing area.
  const editor = await signedIn(browser, EDITOR);
  expect((await editor.goto(requestUrl))?.status()).toBe(404);
  await editor.goto('/editor?tab=dingzhi');
  await expect(editor.getByRole('link', { name: /待联系 \d+/ })).toBeVisible();
  await editor.getByRole('link', { name: organisation }).click();
  await expect(editor.getByRole('link', { name: '标志.png' })).toHaveAttribute(
    'href',
    /\/web\/api\/dingzhi\/attachment/,
  );
  expect(await violations(editor)).toEqual([]);
  const contact = editor.locator('form[data-action="contact"]');
  await contact.getByLabel('说明（选填）').fill('已电话沟通用途和字数。');
  await contact.getByRole('button', { name: '已联系客户' }).click();
  await expect(editor.getByText('已标记为已联系')).toBeVisible();
  const quote = editor.locator('form[data-action="quote"]');
  await quote.getByLabel('报价金额或范围').fill('8 万–12 万元');
  await quote.getByLabel('说明（选填）').fill('含三个字重，约五个月交付。');
  await quote.getByRole('button', { name: '报价' }).click();
  await expect(editor.getByText('报价已发给客户')).toBeVisible();
  await expect(editor.getByText('已报价', { exact: true }).first()).toBeVisible();

  // The client sees the stage, the quote and the messages.
  await client.goto(requestUrl);
  await expect(client.getByText('已报价', { exact: true })).toBeVisible();
  await expect(client.getByText('8 万–12 万元').first()).toBeVisible();
  await expect(client.getByText('含三个字重，约五个月交付。')).toBeVisible();
  await client.goto('/user/message');
  await expect(client.getByText(`“${organisation}”的定制需求已报价`)).toBeVisible();
  await expect(client.getByText(`“${organisation}”的定制需求已收到`)).toBeVisible();
  await client.goto('/user/dingzhi');
  await expect(client.getByRole('link', { name: new RegExp(organisation) })).toBeVisible();
});
