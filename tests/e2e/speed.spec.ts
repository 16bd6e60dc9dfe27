import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '../helpers/e2e-test.ts';

/** Issue 6 (Speed): an article page ships at most 40 KB of compressed JavaScript. */
const ARTICLE_JS_BUDGET = 40 * 1024;

async function firstId(request: APIRequestContext, api: string): Promise<number> {
  const answer = (await (await request.get(api)).json()) as { data: { records: Array<{ id: number }> } };
  const id = answer.data.records[0]?.id;
  if (!id) throw new Error(`${api} lists nothing`);
  return id;
}

test.describe('article pages', () => {
  test('load at most 40 KB of compressed JavaScript, and no React until the login dialog opens', async ({
    browser,
    request,
  }) => {
    const pages = [
      `/news/${await firstId(request, '/web/api/web-wenzhang/selectPage?size=1')}`,
      `/zixun/${await firstId(request, '/web/api/web-wenzhang/selectPage?size=1&type=zixun')}`,
      `/baike/${await firstId(request, '/web/api/shufa-baike/selectPage?size=1')}`,
      `/album/${await firstId(request, '/web/api/web-font-collection/selectPage?size=1')}`,
    ];
    for (const path of pages) {
      // A fresh context: nothing cached, no service worker in between, as on a first visit.
      const context = await browser.newContext();
      const page = await context.newPage();
      const scripts: Array<{ url: string; encoding: string | undefined; bytes: Promise<number> }> = [];
      page.on('response', (response) => {
        if (response.request().resourceType() !== 'script') return;
        scripts.push({
          url: response.url(),
          encoding: response.headers()['content-encoding'],
          // Bytes on the wire: the body as the server encoded it (Chromium asks for br and gzip).
          bytes: response
            .request()
            .sizes()
            .then((sizes) => sizes.responseBodySize),
        });
      });
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      const sizes = await Promise.all(scripts.map((script) => script.bytes));
      const total = sizes.reduce((sum, bytes) => sum + bytes, 0);
      const listing = scripts.map((script, index) => `${sizes[index]} ${script.url}`).join('\n');
      expect(total, `${path} loads these scripts:\n${listing}`).toBeLessThanOrEqual(ARTICLE_JS_BUDGET);
      for (const script of scripts) expect(script.encoding, script.url).toMatch(/^(br|gzip)$/);
      expect(scripts.some((script) => /react|client\.[\w-]+\.js/i.test(script.url))).toBe(false);

      // The account forms (and React with them) come when the dialog opens.
      await page.getByRole('banner').getByRole('button', { name: '登录', exact: true }).click();
      await expect(page.getByRole('dialog', { name: '登录' }).getByRole('tab', { name: '密码登录' })).toBeVisible();
      await context.close();
    }
  });
});
