import type { ReactElement } from 'react';
import type { ChildFontResource, FontResource } from '../../api/fonts.ts';
import { weightLabel, weightName } from '../../components/font/font-format.ts';

/** The upright child font closest to the wanted weight (what a browser would pick, near enough). */
export function nearestChild(font: FontResource, weight: number): ChildFontResource | undefined {
  let best: ChildFontResource | undefined;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const child of font.childFontResource) {
    const score = Math.abs(child.weight - weight) + (child.italic ? 1000 : 0);
    if (score < bestScore) {
      best = child;
      bestScore = score;
    }
  }
  return best;
}

interface Props {
  gno: string;
  /** The family, once its detail has arrived. */
  font: FontResource | undefined;
  /** The weight chosen for this font; undefined for its regular face. */
  weight: number | undefined;
  text: string;
  lang: string;
  onWeight: (weight: number | undefined) => void;
  onRemove: () => void;
}

/** One font of the comparison: its name, a weight of its own, and the text in that face. */
export function CompareCard({ gno, font, weight, text, lang, onWeight, onRemove }: Props): ReactElement {
  const upright = font?.childFontResource.filter((child) => !child.italic) ?? [];
  const child = font ? nearestChild(font, weight ?? 400) : undefined;
  const name = font?.familyName ?? gno;
  return (
    <article className="compare-card" aria-label={name} data-missing-scope>
      <header>
        <a href={`/font/${gno}`}>{name}</a>
        {upright.length > 1 ? (
          <select
            className="input compare-card__weight"
            aria-label={`${name}的字重`}
            value={child?.weight ?? 400}
            onChange={(event) => onWeight(Number(event.target.value))}
          >
            {upright.map((option) => (
              <option key={option.fontGNo} value={option.weight}>
                {weightLabel(option.weight)}
              </option>
            ))}
          </select>
        ) : (
          <span>{child ? `${weightName(child.weight) ?? ''} ${child.weight}` : '加载中'}</span>
        )}
        <span className="compare-card__missing" data-missing-badge hidden />
        <button
          type="button"
          className="btn btn--ghost compare-card__remove"
          onClick={onRemove}
          aria-label={`移除${name}`}
        >
          移除
        </button>
      </header>
      {child && (
        <p className="compare-card__sample" data-preview-gno={child.fontGNo} lang={lang}>
          {text}
        </p>
      )}
    </article>
  );
}
