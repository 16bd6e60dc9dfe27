import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { violations } from '../helpers/axe.ts';
import { registeredPage } from '../helpers/e2e-register.ts';
import { expect, test } from '../helpers/e2e-test.ts';
import { FIELDS, familyZip, REGULAR, specimenPng } from '../helpers/submissions.ts';

// Two people, two browsers: a designer submits a family, a reviewer (EDITOR_ACCOUNTS in
// playwright.config.ts) sends it back, the designer re-uploads, the reviewer accepts, the designer
// signs and uploads the final files, the reviewer publishes, and the font is in the library.

const DESIGNER = `designer-${Date.now().toString(36)}@example.com`;
const REVIEWER = 'reviewer@example.com';
const PASSWORD = 'ink and paper 2026';
const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'submission-'));

function file(name: string, bytes: Uint8Array): string {
  const where = path.join(folder, name);
  fs.writeFileSync(where, bytes);
  return where;
}

const signedIn = (browser: Browser, email: string) => registeredPage(browser, email, PASSWORD);

test('a font goes from a designer’s upload through review to the library', async ({ browser }) => {
  const family = file('墨香黑.zip', familyZip([], true));
  const designer = await signedIn(browser, DESIGNER);

  // The designer reads the guidelines and starts.
  await designer.goto('/tougao');
  await expect(designer.getByRole('link', { name: /GB 2312 汉字表/ })).toHaveAttribute('href', /gb2312-6763/);
  await designer.getByRole('link', { name: '开始投稿' }).first().click();
  await expect(designer.getByRole('heading', { name: '1. 字体信息' })).toBeVisible();
  // The wizard's fields are the island's state: typed before it wakes, a name is put back to empty.
  await expect(designer.locator('astro-island[component-url*="SubmitWizard"]:not([ssr])')).toHaveCount(1);
  // Every field review needs is marked, as the server requires it (one contract for both).
  await expect(designer.locator('.sub-panel .sub-field__required')).toHaveCount(7);
  await designer.getByLabel(/中文名称/).fill('墨香黑');
  await designer.getByLabel('英文名称').fill('Mo Xiang Hei');
  await designer.getByLabel('风格分类').selectOption('黑体');
  await designer.getByLabel('适用文字').selectOption('简体');
  await designer.getByLabel('设计师署名').fill('林墨');
  await designer
    .getByLabel('字体介绍')
    .fill('一款为屏幕正文设计的黑体，笔画端口略带弧度，小字号下依然清楚，适合长篇阅读。');
  await designer.getByLabel(/SIL 开源字体许可/).check();
  await designer.getByRole('button', { name: '保存并继续' }).click();

  await expect(designer.getByRole('heading', { name: '2. 字体文件' })).toBeVisible();
  await expect(designer).toHaveURL(/\/user\/submit\?uid=/);
  // A PNG renamed .ttf is refused with its reason.
  await designer.getByLabel('选择字体文件').setInputFiles(file('fake.ttf', await specimenPng()));
  await expect(designer.getByRole('alert')).toContainText('不是字体文件');
  await designer.getByLabel('选择字体文件').setInputFiles(family);
  const report = designer.getByRole('table', { name: '各字重的检查结果' });
  await expect(report.getByRole('row')).toHaveCount(3);
  await expect(report).toContainText('通过');
  expect(await violations(designer)).toEqual([]);
  await designer.getByRole('button', { name: '下一步' }).click();

  await designer.getByLabel('添加展示图').setInputFiles(file('样张.png', await specimenPng()));
  await expect(designer.getByRole('img', { name: '展示图 样张.png' })).toBeVisible();
  await designer.getByRole('button', { name: '下一步' }).click();
  await designer.getByLabel('原创设计').check();
  await designer.getByRole('button', { name: '保存并继续' }).click();
  await expect(designer.getByText('信息完整，可以提交')).toBeVisible();
  await designer.getByRole('button', { name: '提交审核' }).click();
  await expect(designer.getByRole('heading', { name: '墨香黑', level: 1 })).toBeVisible();
  await expect(designer.getByText('待审核', { exact: true })).toBeVisible();
  const detailUrl = designer.url();

  // The reviewer finds it in the queue, claims it and sends it back with a comment on the font file.
  const reviewer = await signedIn(browser, REVIEWER);
  await reviewer.goto('/editor?tab=submissions');
  await reviewer.getByRole('link', { name: '墨香黑' }).click();
  await reviewer.getByRole('button', { name: '开始审核' }).click();
  await expect(reviewer.getByRole('button', { name: '退回修改' })).toBeVisible();
  await reviewer.getByText(/逐项意见/).click();
  await reviewer.getByRole('textbox', { name: '字体文件 墨香黑.zip' }).fill('粗体的“永”字捺笔过重，请调整后重新上传。');
  expect(await violations(reviewer)).toEqual([]);
  await reviewer.getByRole('button', { name: '退回修改' }).click();
  await expect(reviewer.getByText('待修改', { exact: true })).toBeVisible();

  // The designer sees the comment where it belongs, re-uploads and resubmits.
  await designer.goto(detailUrl);
  await expect(designer.getByText('粗体的“永”字捺笔过重')).toBeVisible();
  expect(await violations(designer)).toEqual([]);
  await designer.getByRole('link', { name: '修改并重新提交' }).click();
  await designer.getByRole('button', { name: /字体文件/ }).click();
  await expect(designer.getByText('粗体的“永”字捺笔过重')).toBeVisible();
  await designer.getByLabel('换一个字体文件').setInputFiles(file('墨香黑-v2.zip', fs.readFileSync(family)));
  await expect(designer.getByText('墨香黑-v2.zip')).toBeVisible();
  await designer.getByRole('button', { name: /确认提交/ }).click();
  await designer.getByLabel(/给审核员的说明/).fill('已调整粗体的捺笔。');
  await designer.getByRole('button', { name: '重新提交审核' }).click();
  await expect(designer.getByText('已重新提交', { exact: true })).toBeVisible();

  // The reviewer accepts.
  await reviewer.reload();
  await reviewer.getByRole('button', { name: '开始审核' }).click();
  await reviewer.getByRole('button', { name: '审核通过' }).click();
  await expect(reviewer.getByText('等待设计师签约并上传终稿')).toBeVisible();

  // The designer signs, then uploads the final files.
  await designer.reload();
  await designer.getByRole('link', { name: '去签约' }).click();
  // A name whose characters the fixture fonts hold, so the agreement's PDF draws every one of them.
  await designer.getByLabel('真实姓名或工作室名称').fill('王大川');
  await designer.getByLabel('署名').fill('大川');
  await designer.getByLabel(/我已阅读并同意/).check();
  await designer.getByRole('button', { name: '签署协议' }).click();
  await expect(designer.getByRole('heading', { name: '你已签约' })).toBeVisible();
  // The signed page leads back to the submission waiting for its final files.
  await designer.getByRole('link', { name: '回到《墨香黑》上传终稿' }).click();
  await expect(designer).toHaveURL(detailUrl);
  // Final files without the bold are not the reviewed design: refused, saying why, with the way back to review.
  await designer.getByLabel('上传终稿').setInputFiles(file('墨香黑-只有常规体.ttf', REGULAR));
  await expect(designer.getByRole('alert')).toContainText('缺少字重 Bold（700）');
  await expect(designer.getByRole('button', { name: '作为新版本重新送审' })).toBeVisible();
  await designer.getByLabel('换一份终稿').setInputFiles(family);
  await expect(designer.getByText('终稿已上传', { exact: true })).toBeVisible();

  // The reviewer publishes; the font is in the library and previews in its own glyphs.
  await reviewer.reload();
  await reviewer.getByRole('button', { name: '上架到字体库' }).click();
  await expect(reviewer.getByRole('link', { name: '查看字体页面' })).toBeVisible();
  await designer.goto('/font?keyword=墨香黑');
  await designer
    .getByRole('link', { name: /墨香黑/ })
    .first()
    .click();
  await expect(designer).toHaveURL(/\/font\/mo-xiang-hei$/);
  await designer.waitForFunction(() => document.documentElement.dataset['previewsLoaded']);
  // The page loads a preview's face as it comes near the screen: each is brought into view and must
  // then be drawn in the font's own face (the title only where the face has its characters).
  const previews = designer.locator('[data-preview-gno]:not([data-preview-optional])');
  expect(await previews.count()).toBeGreaterThan(0);
  for (const preview of await previews.all()) {
    await preview.scrollIntoViewIfNeeded();
    await expect.poll(() => preview.evaluate((element) => element.style.fontFamily)).not.toBe('');
  }
  await expect(designer.getByText('林墨').first()).toBeVisible();

  // The user centre's overview leads back to the submission, now published.
  await designer.goto('/user/overview');
  await designer.getByRole('link', { name: '墨香黑', exact: true }).click();
  await expect(designer).toHaveURL(detailUrl);
  await expect(designer.getByText('已上架', { exact: true })).toBeVisible();
});

/** Sends a complete submission to review over the API, as the form does step by step; answers its uid. */
async function submittedOverApi(page: Page, fontName: string): Promise<string> {
  const token = (await page.context().cookies()).find((cookie) => cookie.name === 'token')?.value ?? '';
  const headers = { 'alliance-authenticate': token };
  const upload = async (purpose: 'font' | 'image', bytes: Uint8Array, name: string, type: string) => {
    const query = new URLSearchParams({ purpose, name, size: String(bytes.byteLength), type });
    const ticket = (await (await page.request.get(`/web/api/contribute/getSTSToken?${query}`, { headers })).json())
      .data as { url: string; headers: Record<string, string>; key: string };
    const put = await page.request.put(ticket.url, { headers: ticket.headers, data: Buffer.from(bytes) });
    expect(put.status()).toBe(200);
    return { key: ticket.key, name };
  };
  const saved = await page.request.post('/web/api/submission/saveSubmission', {
    headers,
    data: {
      fields: { ...FIELDS, fontName },
      font: await upload('font', familyZip(), `${fontName}.zip`, 'application/zip'),
      images: [await upload('image', await specimenPng(), '样张.png', 'image/png')],
    },
  });
  const uid = ((await saved.json()) as { data: { uid: string } }).data.uid;
  expect((await page.request.post('/web/api/contribute/submit', { headers, data: { uid } })).status()).toBe(200);
  return uid;
}

test('a designer deletes a draft and withdraws a submission, each after saying so', async ({ browser }) => {
  const designer = await signedIn(browser, `changes-${Date.now().toString(36)}@example.com`);

  // A draft with only its name: kept, then deleted from the list after the dialog asks.
  await designer.goto('/user/submit?new');
  await designer.getByLabel(/中文名称/).fill('试写草稿');
  await designer.getByRole('button', { name: '保存并继续' }).click();
  await expect(designer.getByRole('heading', { name: '2. 字体文件' })).toBeVisible();
  await designer.goto('/user/submission');
  const draft = designer.getByRole('listitem').filter({ hasText: '试写草稿' });
  await draft.getByRole('button', { name: '删除草稿' }).click();
  const dialog = designer.getByRole('dialog', { name: '删除这份草稿？' });
  await expect(dialog).toBeVisible();
  expect(await violations(designer)).toEqual([]);
  // Escape leaves it be.
  await designer.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await draft.getByRole('button', { name: '删除草稿' }).click();
  await dialog.getByRole('button', { name: '删除', exact: true }).click();
  await expect(designer.getByText('你还没有投稿。')).toBeVisible();

  // A submission in review, withdrawn from its page with a reason.
  const uid = await submittedOverApi(designer, '撤回测试黑');
  await designer.goto(`/user/submission/${uid}`);
  await designer.getByRole('button', { name: '撤回投稿' }).click();
  const withdraw = designer.getByRole('dialog', { name: '撤回这份投稿？' });
  await expect(withdraw).toContainText('按投稿协议第二条保留备查');
  await withdraw.getByLabel(/撤回原因/).fill('想再打磨一年');
  await withdraw.getByRole('button', { name: '撤回投稿' }).click();
  await expect(designer.getByText('已撤回', { exact: true })).toBeVisible();
  await expect(designer.getByText('你已撤回这份投稿，审核已停止；文件和审核记录保留备查。')).toBeVisible();
  await expect(designer.getByRole('button', { name: '撤回投稿' })).toHaveCount(0);
  await expect(designer.getByText('想再打磨一年')).toBeVisible();
});
