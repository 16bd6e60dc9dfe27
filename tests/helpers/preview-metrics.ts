import type { Page } from '@playwright/test';

/** What drawing a page's previews cost the browser. */
export interface PreviewMetrics {
  /** Elements drawn in a preview font. */
  previews: number;
  /** Preview fonts loaded (one per font on the page). */
  fonts: number;
  /** Bytes of WOFF2 the page received: inside the subset answer, or fetched by address. */
  fontBytes: number;
  /** WOFF2 files fetched by address after the subset answer (none when the answer carries them). */
  fontRequests: number;
  /** Milliseconds from navigation start until every preview font had loaded. */
  drawnMs: number;
}

/**
 * Opens a font page and waits until its previews are drawn, then reads the `font-previews-drawn` mark
 * that src/islands/fonts/font-previews.ts sets (with the WOFF2 bytes the answer carried) and any
 * WOFF2 fetched by address (Resource Timing).
 */
export async function measurePreviews(page: Page, url: string): Promise<PreviewMetrics> {
  await page.goto(url);
  await page.waitForFunction(() => document.documentElement.dataset['previewsLoaded'], undefined, { timeout: 30_000 });
  return page.evaluate(() => {
    const mark = performance.getEntriesByName('font-previews-drawn').at(-1) as PerformanceMark | undefined;
    const detail = mark?.detail as { fonts?: number; fontBytes?: number } | undefined;
    const woff2 = performance
      .getEntriesByType('resource')
      .filter((entry) => entry.name.endsWith('.woff2')) as PerformanceResourceTiming[];
    return {
      previews: document.querySelectorAll('[data-preview-gno]').length,
      fonts: detail?.fonts ?? 0,
      fontRequests: woff2.length,
      fontBytes:
        (detail?.fontBytes ?? 0) + woff2.reduce((sum, entry) => sum + (entry.encodedBodySize || entry.transferSize), 0),
      drawnMs: Math.round(mark?.startTime ?? Number.NaN),
    };
  });
}
