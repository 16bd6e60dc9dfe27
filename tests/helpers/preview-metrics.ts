import type { Page } from '@playwright/test';

/** What drawing a page's previews cost the browser. */
export interface PreviewMetrics {
  /** Elements drawn in a preview font. */
  previews: number;
  /** Preview fonts loaded (one per font on the page). */
  fonts: number;
  /** Bytes of WOFF2 the page downloaded. */
  fontBytes: number;
  /** Milliseconds from navigation start until every preview font had loaded. */
  drawnMs: number;
}

/**
 * Opens a font page and waits until its previews are drawn, then reads the WOFF2 bytes fetched
 * (Resource Timing) and the `font-previews-drawn` mark that src/islands/fonts/font-previews.ts sets.
 */
export async function measurePreviews(page: Page, url: string): Promise<PreviewMetrics> {
  await page.goto(url);
  await page.waitForFunction(() => document.documentElement.dataset['previewsLoaded'], undefined, { timeout: 30_000 });
  return page.evaluate(() => {
    const mark = performance.getEntriesByName('font-previews-drawn').at(-1) as PerformanceMark | undefined;
    const woff2 = performance
      .getEntriesByType('resource')
      .filter((entry) => entry.name.endsWith('.woff2')) as PerformanceResourceTiming[];
    return {
      previews: document.querySelectorAll('[data-preview-gno]').length,
      fonts: (mark?.detail as { fonts?: number } | undefined)?.fonts ?? 0,
      fontBytes: woff2.reduce((sum, entry) => sum + (entry.encodedBodySize || entry.transferSize), 0),
      drawnMs: Math.round(mark?.startTime ?? Number.NaN),
    };
  });
}
