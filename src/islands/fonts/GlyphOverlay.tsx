import { type ReactElement, useEffect, useRef, useState } from 'react';
import { type GlyphDetail, getGlyphDetail } from '../../api/fonts.ts';
import { glyphSvg } from './glyph-figure.ts';

interface OverlayFont {
  /** The family's gno, as the comparison names it. */
  gno: string;
  name: string;
  /** The face drawn: the family's chosen weight. */
  face: string;
}

interface Props {
  fonts: OverlayFont[];
  /** The two families chosen (gnos); empty for the first two. */
  chosen: readonly string[];
  char: string;
  onChange: (overlay: string[], char: string) => void;
}

/**
 * One character of two faces drawn over each other on one baseline and one em (each scaled to 1000
 * units), in two colours, so differences of weight, proportion and stroke show at a glance.
 */
export function GlyphOverlay({ fonts, chosen, char, onChange }: Props): ReactElement | null {
  const first = fonts.find((font) => font.gno === chosen[0]) ?? fonts[0];
  const second = fonts.find((font) => font.gno === chosen[1] && font !== first) ?? fonts.find((font) => font !== first);
  const [glyphs, setGlyphs] = useState<[GlyphDetail, GlyphDetail] | undefined>();
  const [error, setError] = useState('');
  const figure = useRef<HTMLDivElement>(null);

  const faces = first && second ? [first.face, second.face] : undefined;
  const [faceA, faceB] = faces ?? [];
  useEffect(() => {
    if (!faceA || !faceB || !char) return;
    let current = true;
    setError('');
    void Promise.all([getGlyphDetail(faceA, char), getGlyphDetail(faceB, char)])
      .then((pair) => current && setGlyphs(pair))
      .catch(() => current && setError('暂时无法读取字形，请稍后再试。'));
    return () => {
      current = false;
    };
  }, [faceA, faceB, char]);

  const names = `${first?.name ?? ''}|${second?.name ?? ''}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: redrawn when the glyphs or the names change, not the objects around them.
  useEffect(() => {
    if (!figure.current || !glyphs || !first || !second) return;
    figure.current.replaceChildren(
      glyphSvg(
        [
          { detail: glyphs[0], className: 'glyph-overlay__a' },
          { detail: glyphs[1], className: 'glyph-overlay__b' },
        ],
        { metrics: false, label: `「${char}」：${first.name}（红）与${second.name}（蓝）叠在一起` },
      ),
    );
  }, [glyphs, names, char]);

  if (!first || !second) return null;
  const lacking = glyphs?.filter((glyph) => !glyph.has) ?? [];
  const choose = (a: string, b: string) => onChange([a, b], char);
  return (
    <section className="glyph-overlay" aria-labelledby="glyph-overlay-title">
      <h2 id="glyph-overlay-title">字形叠加</h2>
      <div className="glyph-overlay__controls">
        <label className="compare-field">
          <span>红色</span>
          <select className="input" value={first.gno} onChange={(event) => choose(event.target.value, second.gno)}>
            {fonts.map((font) => (
              <option key={font.gno} value={font.gno} disabled={font === second}>
                {font.name}
              </option>
            ))}
          </select>
        </label>
        <label className="compare-field">
          <span>蓝色</span>
          <select className="input" value={second.gno} onChange={(event) => choose(first.gno, event.target.value)}>
            {fonts.map((font) => (
              <option key={font.gno} value={font.gno} disabled={font === first}>
                {font.name}
              </option>
            ))}
          </select>
        </label>
        <label className="compare-field glyph-overlay__char">
          <span>字</span>
          <input
            className="input"
            type="text"
            maxLength={2}
            value={char}
            onChange={(event) => {
              const next = [...event.target.value.trim()].at(-1);
              if (next) onChange([first.gno, second.gno], next);
            }}
          />
        </label>
      </div>
      <div className="glyph-overlay__figure" ref={figure} />
      <p className="glyph-overlay__note" role="status">
        {error ||
          (lacking.length > 0
            ? `${lacking.map((glyph) => (glyph.fontGNo === glyphs?.[0].fontGNo ? first.name : second.name)).join('、')}没有「${char}」。`
            : `红：${first.name}　蓝：${second.name}；重叠处为紫色。两字都按各自字身缩放到同一 em，基线对齐。`)}
      </p>
    </section>
  );
}
