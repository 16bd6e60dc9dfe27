import { useStore } from '@nanostores/react';
import { type ReactElement, useEffect, useRef, useState } from 'react';
import { type ChildFontResource, type FontResource, getFontDetail, getFontList } from '../../api/fonts.ts';
import { addCompare, removeCompare, restoreCompare } from '../../stores/compare.ts';
import { $compareFonts } from '../../stores/user.ts';
import { debounce, loadPreviews } from './font-previews.ts';

const DEFAULT_TEXT = '天地玄黄，宇宙洪荒。The quick brown fox 0123';
const WEIGHTS = [100, 200, 300, 400, 500, 600, 700, 800, 900];

/** The child font closest to the wanted weight, upright preferred (what a browser would pick, near enough). */
function nearestChild(font: FontResource, weight: number): ChildFontResource | undefined {
  let best: ChildFontResource | undefined;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const child of font.childFontResource) {
    const score = Math.abs(Number(child['weight'] ?? 400) - weight) + (child['italic'] ? 1000 : 0);
    if (score < bestScore) {
      best = child;
      bestScore = score;
    }
  }
  return best;
}

/** Finds families to add: a keyword search of the library. */
function CompareSearch({ chosen }: { chosen: Set<string> }): ReactElement {
  const [keyword, setKeyword] = useState('');
  const [results, setResults] = useState<FontResource[]>([]);
  const search = useRef(
    debounce((value: string) => {
      if (!value.trim()) {
        setResults([]);
        return;
      }
      void getFontList({ keyword: value, size: 8 })
        .then((page) => setResults(page.records))
        .catch(() => setResults([]));
    }),
  ).current;
  useEffect(() => search(keyword), [keyword, search]);
  return (
    <div className="compare-search">
      <label className="compare-field">
        <span>添加字体</span>
        <input
          className="input"
          type="search"
          value={keyword}
          maxLength={50}
          placeholder="搜索字体名称，如 宋体"
          onChange={(event) => setKeyword(event.target.value)}
        />
      </label>
      <ul className="compare-search__results">
        {results
          .filter((font) => !chosen.has(font.fontGNo))
          .map((font) => (
            <li key={font.fontGNo}>
              <span>{font.familyName}</span>
              <button
                type="button"
                className="btn"
                onClick={() => addCompare({ id: font.fontGNo, familyName: font.familyName })}
              >
                加入对比
              </button>
            </li>
          ))}
      </ul>
    </div>
  );
}

/**
 * The compare list side by side (SPEC §4, §5): one shared text, size and weight for every font,
 * each drawn in the weight nearest to the chosen one; fonts are added by search and removed here.
 */
export default function CompareBoard(): ReactElement {
  const list = useStore($compareFonts);
  const [details, setDetails] = useState<Record<string, FontResource | null>>({});
  const [text, setText] = useState(DEFAULT_TEXT);
  const [size, setSize] = useState(40);
  const [weight, setWeight] = useState(400);
  const board = useRef<HTMLDivElement>(null);
  const [restored, setRestored] = useState(false);

  useEffect(() => {
    restoreCompare();
    setRestored(true);
  }, []);

  useEffect(() => {
    for (const item of list) {
      const gno = String(item.id);
      if (gno in details) continue;
      setDetails((known) => ({ ...known, [gno]: null }));
      void getFontDetail({ gno })
        .then((font) => setDetails((known) => ({ ...known, [gno]: font })))
        .catch(() => undefined);
    }
  }, [list, details]);

  const drawn = useRef(debounce(() => board.current && void loadPreviews(board.current), 250)).current;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the previews are redrawn whenever what they show changes.
  useEffect(() => drawn(), [list, details, text, weight, drawn]);

  const shown = text.trim() || DEFAULT_TEXT;
  return (
    <div className="compare">
      <div className="compare-controls">
        <label className="compare-field compare-field--text">
          <span>对比文字</span>
          <input
            className="input"
            type="text"
            value={text}
            maxLength={60}
            onChange={(event) => setText(event.target.value)}
          />
        </label>
        <label className="compare-field">
          <span>字号 {size} px</span>
          <input
            type="range"
            min={16}
            max={96}
            step={2}
            value={size}
            onChange={(event) => setSize(Number(event.target.value))}
          />
        </label>
        <label className="compare-field">
          <span>字重</span>
          <select className="input" value={weight} onChange={(event) => setWeight(Number(event.target.value))}>
            {WEIGHTS.map((w) => (
              <option key={w} value={w}>
                {w}
              </option>
            ))}
          </select>
        </label>
      </div>
      <CompareSearch chosen={new Set(list.map((item) => String(item.id)))} />
      {restored && list.length === 0 ? (
        <div className="compare-empty">
          <p>对比列表还是空的。</p>
          <p>
            在上方搜索，或在<a href="/font">字体库</a>中点击字体旁的「对比」按钮加入。
          </p>
        </div>
      ) : (
        <div className="compare-board" ref={board} style={{ fontSize: `${size}px` }}>
          {list.map((item) => {
            const gno = String(item.id);
            const font = details[gno];
            const child = font ? nearestChild(font, weight) : undefined;
            return (
              <article className="compare-card" key={gno} aria-label={item.familyName ?? gno}>
                <header>
                  <a href={`/font/${gno}`}>{font?.familyName ?? item.familyName ?? gno}</a>
                  <span>
                    {child ? `${String(child['styleName'] ?? '')} ${String(child['weight'] ?? '')}` : '加载中'}
                  </span>
                  <button type="button" className="btn btn--ghost" onClick={() => removeCompare(gno)}>
                    移除
                  </button>
                </header>
                {child && (
                  <p className="compare-card__sample" data-preview-gno={child.fontGNo}>
                    {shown}
                  </p>
                )}
              </article>
            );
          })}
        </div>
      )}
    </div>
  );
}
