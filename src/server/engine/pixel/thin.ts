import type { GlyphCoverage } from './rasterize.ts';

// Thin faces (a Thin or ExtraLight weight, a hairline display face) cover no cell of a small grid
// by much: at grid 16 a 1/60 em stroke covers a quarter of a cell at best, so at the usual
// threshold every glyph comes out empty. This module tells when that happens and works out, from
// the glyphs' own coverage, the threshold or the grid that does give them their strokes back.

/** The thresholds the tool offers, 0.05 to 0.95 in steps of 0.05. */
const THRESHOLDS = Array.from({ length: 19 }, (_, i) => Math.round((0.05 + i * 0.05) * 100) / 100);
/** A glyph has lost its strokes when its ink is less than this share of the cells its outline fills. */
const FAINT = 0.25;
/** A glyph whose outline fills less than this many cells is a dot or a space: it says nothing. */
const MIN_AREA = 0.5;

/** How the glyphs of a line fare at a threshold. */
export interface InkReport {
  /** Glyphs with an outline large enough to judge. */
  judged: number;
  /** Of those, the glyphs drawn with almost no ink. */
  faint: number;
  /** Ink cells of all the glyphs. */
  ink: number;
  /** Cells the outlines fill, summed (coverage added up). */
  area: number;
}

/** Counts the ink of the glyphs at a threshold against the area of their outlines. */
export function inkReport(glyphs: readonly GlyphCoverage[], threshold: number): InkReport {
  const report: InkReport = { judged: 0, faint: 0, ink: 0, area: 0 };
  for (const glyph of glyphs) {
    let ink = 0;
    let area = 0;
    for (const cell of glyph.cells) {
      area += cell;
      if (cell >= threshold) ink++;
    }
    report.ink += ink;
    report.area += area;
    if (area < MIN_AREA) continue;
    report.judged++;
    if (ink < FAINT * area) report.faint++;
  }
  return report;
}

/** Whether a line comes out (almost) empty: half or more of its glyphs lost their strokes. */
export function isFaint(report: InkReport): boolean {
  return report.judged > 0 && report.faint * 2 >= report.judged;
}

/**
 * The threshold (of those the tool offers) whose ink comes closest to the outlines' own area
 * among those that leave no glyph faint, or undefined when even the lowest leaves the line faint.
 */
export function suggestedThreshold(glyphs: readonly GlyphCoverage[]): number | undefined {
  let best: { threshold: number; error: number } | undefined;
  for (const threshold of THRESHOLDS) {
    const report = inkReport(glyphs, threshold);
    if (report.faint > 0 || report.judged === 0) continue;
    const error = Math.abs(report.ink - report.area);
    if (!best || error < best.error) best = { threshold, error };
  }
  return best?.threshold;
}

/** What would give a faint line its strokes back: a lower threshold, or a larger grid. */
export interface PixelSuggestion {
  threshold?: number;
  grid?: number;
}

/** The Chinese message for a face too thin for its grid, with what would draw it. */
export function faintMessage(grid: number, suggestion: PixelSuggestion): string {
  const ways = [
    suggestion.threshold !== undefined ? `把笔画调粗（阈值 ${suggestion.threshold.toFixed(2)}）` : undefined,
    suggestion.grid !== undefined ? `把点阵尺寸调到 ${suggestion.grid}` : undefined,
  ].filter(Boolean);
  const head = `这款字体的笔画太细，在 ${grid} × ${grid} 的点阵上几乎画不出像素`;
  return ways.length > 0 ? `${head}。试试${ways.join('，或')}。` : `${head}，请换一款更粗的字重。`;
}
