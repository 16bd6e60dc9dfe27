import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';

// The checks behind Lighthouse's accessibility score (axe-core, the engine Lighthouse runs), with the
// WCAG 2.1 A and AA rules and axe's best practices.
const axeScript = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The accessibility violations axe-core finds on the page, one line each (rule: first targets). */
export async function violations(page: Page): Promise<string[]> {
  // Evaluated through the debugging protocol rather than added as a <script>: the site's policy
  // (rightly) refuses an inline script it does not know.
  await page.evaluate(axeScript);
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
