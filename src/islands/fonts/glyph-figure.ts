// Draws glyphs from their outlines (GET /web/api/font/glyph) as SVG, on the face's own metrics:
// the em box, baseline, ascender and descender, the advance and the outline's bounding box. Used by
// the glyph browser's zoom and, with two faces scaled to one em, by the compare page's overlay.
import type { GlyphDetail } from '../../api/fonts.ts';

const SVG = 'http://www.w3.org/2000/svg';

function svgElement<K extends keyof SVGElementTagNameMap>(
  name: K,
  attributes: Record<string, string | number>,
): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  return element;
}

/** One glyph to draw, and the class its ink takes (its colour). */
export interface DrawnGlyph {
  detail: GlyphDetail;
  className: string;
}

/**
 * An SVG of one or more glyphs, each scaled to an em of 1000 so faces of different units per em
 * overlay on one baseline; y points up as in the font. With `metrics`, the first glyph's lines and
 * boxes are drawn behind it.
 */
export function glyphSvg(glyphs: DrawnGlyph[], options: { metrics: boolean; label: string }): SVGSVGElement {
  const drawn = glyphs.filter((glyph) => glyph.detail.has && glyph.detail.unitsPerEm);
  const scaleOf = (detail: GlyphDetail) => 1000 / (detail.unitsPerEm ?? 1000);
  let left = 0;
  let right = 1000;
  let top = 880;
  let bottom = -120;
  for (const { detail } of drawn) {
    const k = scaleOf(detail);
    left = Math.min(left, (detail.bbox?.xMin ?? 0) * k);
    right = Math.max(right, (detail.advanceWidth ?? 0) * k, (detail.bbox?.xMax ?? 0) * k);
    top = Math.max(top, (detail.ascender ?? 880) * k, (detail.bbox?.yMax ?? 0) * k);
    bottom = Math.min(bottom, (detail.descender ?? -120) * k, (detail.bbox?.yMin ?? 0) * k);
  }
  const pad = 60;
  const svg = svgElement('svg', {
    viewBox: `${left - pad} ${-top - pad} ${right - left + 2 * pad} ${top - bottom + 2 * pad}`,
    role: 'img',
    'aria-label': options.label,
  });
  const first = drawn[0];
  if (options.metrics && first) {
    const k = scaleOf(first.detail);
    const advance = (first.detail.advanceWidth ?? 0) * k;
    const ascender = (first.detail.ascender ?? 880) * k;
    const descender = (first.detail.descender ?? -120) * k;
    svg.append(
      svgElement('rect', {
        class: 'glyph-zoom__advance',
        x: 0,
        y: -ascender,
        width: advance,
        height: ascender - descender,
      }),
      svgElement('line', { class: 'glyph-zoom__line', x1: left - pad, x2: right + pad, y1: -ascender, y2: -ascender }),
      svgElement('line', {
        class: 'glyph-zoom__line',
        x1: left - pad,
        x2: right + pad,
        y1: -descender,
        y2: -descender,
      }),
      svgElement('line', {
        class: 'glyph-zoom__line glyph-zoom__line--base',
        x1: left - pad,
        x2: right + pad,
        y1: 0,
        y2: 0,
      }),
    );
    const box = first.detail.bbox;
    if (box && box.xMax > box.xMin) {
      svg.append(
        svgElement('rect', {
          class: 'glyph-zoom__box',
          x: box.xMin * k,
          y: -box.yMax * k,
          width: (box.xMax - box.xMin) * k,
          height: (box.yMax - box.yMin) * k,
        }),
      );
    }
  }
  for (const { detail, className } of drawn) {
    const k = scaleOf(detail);
    // Font units have y up; SVG has y down.
    svg.append(svgElement('path', { class: className, d: detail.path ?? '', transform: `scale(${k} ${-k})` }));
  }
  return svg;
}

/** The metrics of a glyph as a definition list a designer reads. */
export function metricsList(detail: GlyphDetail): HTMLDListElement {
  const list = document.createElement('dl');
  const rows: Array<[string, string]> = [
    ['码位', detail.unicode],
    ['字宽', `${detail.advanceWidth}`],
  ];
  if (detail.advanceHeight !== undefined) rows.push(['竖排字高', `${detail.advanceHeight}`]);
  if (detail.bbox) {
    rows.push(['左边距', `${detail.leftSideBearing}`]);
    rows.push(['右边距', `${Math.round(((detail.advanceWidth ?? 0) - detail.bbox.xMax) * 100) / 100}`]);
    rows.push(['字面框', `${detail.bbox.xMin}, ${detail.bbox.yMin} – ${detail.bbox.xMax}, ${detail.bbox.yMax}`]);
  }
  rows.push(['上缘 / 下缘', `${detail.ascender} / ${detail.descender}`]);
  rows.push(['每 em 单位', `${detail.unitsPerEm}`]);
  rows.push(['竖排字形', detail.verticalForm ? '有（竖排时替换）' : '与横排相同']);
  for (const [term, value] of rows) {
    const dt = document.createElement('dt');
    dt.textContent = term;
    const dd = document.createElement('dd');
    dd.textContent = value;
    list.append(dt, dd);
  }
  return list;
}
