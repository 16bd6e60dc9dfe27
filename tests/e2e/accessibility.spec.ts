import { createRequire } from 'node:module';
import { expect, type Page, test } from '@playwright/test';

// The checks behind Lighthouse's accessibility score (axe-core, the engine Lighthouse runs), on a
// phone-sized screen as Lighthouse's mobile preset uses, for the pages readers open most.
const axeSource = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

async function violations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: axeSource });
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            context: Document,
            options: object,
          ) => Promise<{ violations: Array<{ id: string; nodes: Array<{ target: string[] }> }> }>;
        };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      rules: { 'label-content-name-mismatch': { enabled: true } },
    });
    return result.violations.map(
      (violation) =>
        `${violation.id}: ${violation.nodes
          .map((node) => node.target.join(' '))
          .slice(0, 3)
          .join(', ')}`,
    );
  });
}

test('home, the library, a font page and an article pass every accessibility check', async ({ page }) => {
  await page.setViewportSize({ width: 412, height: 823 });
  await page.goto('/news');
  const article = (await page.locator('main a[href^="/news/"]').first().getAttribute('href')) ?? '';
  for (const path of ['/', '/font', '/font/noto-sans-sc', article]) {
    await page.goto(path, { waitUntil: 'networkidle' });
    expect(await violations(page), path).toEqual([]);
  }
});
