import { useStore } from '@nanostores/react';
import { type ReactElement, useEffect, useRef, useState } from 'react';
import { type FontResource, getFontDetail, getFontList } from '../../api/fonts.ts';
import { scriptLabelOf } from '../../contract/fonts.ts';
import { copyText } from '../../lib/copy-text.ts';
import { sampleLang } from '../../lib/type-tester.ts';
import {
  $compareView,
  type CompareMode,
  keepSharedCompare,
  MAX_COMPARED,
  setCompareView,
  startCompareView,
} from '../../stores/compare-view.ts';
import { showToast } from '../../stores/toast.ts';
import { $tester, setRowWeight } from '../../stores/type-tester.ts';
import { Segmented } from '../tools/Segmented.tsx';
import { CompareCard, nearestChild } from './CompareCard.tsx';
import { debounce, loadPreviews } from './font-previews.ts';
import { GlyphOverlay } from './GlyphOverlay.tsx';

/**
 * The text every face is compared in until the visitor types their own: characters Simplified,
 * Traditional and Japanese faces share (same code points, no punctuation to lack).
 */
export const COMPARE_TEXT = '永和九年 暮春之初 The quick brown fox 0123';

/** Finds families to add: a keyword search of the library. */
function CompareSearch({
  chosen,
  onAdd,
}: {
  chosen: readonly string[];
  onAdd: (font: FontResource) => void;
}): ReactElement {
  const [keyword, setKeyword] = useState('');
  const [results, setResults] = useState<FontResource[]>([]);
  // Only the answer to the last keyword is shown: a slower answer to an older one is dropped.
  const request = useRef(0);
  const search = useRef(
    debounce((value: string) => {
      const run = ++request.current;
      if (!value.trim()) {
        setResults([]);
        return;
      }
      void getFontList({ keyword: value, size: 8 })
        .then((page) => run === request.current && setResults(page.records))
        .catch(() => run === request.current && setResults([]));
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
          .filter((font) => !chosen.includes(font.fontGNo))
          .map((font) => (
            <li key={font.fontGNo}>
              <span>{font.familyName}</span>
              <button type="button" className="btn" onClick={() => onAdd(font)}>
                加入对比
              </button>
            </li>
          ))}
      </ul>
    </div>
  );
}

/**
 * The compare page: the fonts of the address (or the visitor's own compare list) side by side or
 * stacked, in the type tester's text, size and settings, each in a weight of its own; a glyph of two
 * of them laid over each other; and a link that opens the same comparison for anyone.
 */
export default function CompareBoard(): ReactElement {
  const view = useStore($compareView);
  const tester = useStore($tester);
  const [details, setDetails] = useState<Record<string, FontResource | null>>({});
  const [started, setStarted] = useState(false);
  const board = useRef<HTMLDivElement>(null);

  useEffect(() => {
    startCompareView();
    setStarted(true);
  }, []);

  useEffect(() => {
    for (const gno of view.fonts) {
      if (gno in details) continue;
      setDetails((known) => ({ ...known, [gno]: null }));
      void getFontDetail({ gno })
        .then((font) => setDetails((known) => ({ ...known, [gno]: font })))
        .catch(() => undefined);
    }
  }, [view.fonts, details]);

  const drawn = useRef(debounce(() => board.current && void loadPreviews(board.current), 250)).current;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the previews are redrawn whenever what they show changes.
  useEffect(() => drawn(), [view.fonts, details, tester.text, tester.weights, drawn]);

  const text = tester.text || COMPARE_TEXT;
  const add = (font: FontResource) => {
    if (view.fonts.length >= MAX_COMPARED) {
      showToast(`一次最多对比 ${MAX_COMPARED} 款字体`, 'warning');
      return;
    }
    setDetails((known) => ({ ...known, [font.fontGNo]: font }));
    setCompareView({ fonts: [...view.fonts, font.fontGNo] });
  };
  const remove = (gno: string) => {
    setCompareView({ fonts: view.fonts.filter((font) => font !== gno) });
    setRowWeight(gno, undefined);
  };
  const share = async () => {
    const copied = await copyText(location.href);
    showToast(
      copied ? '对比链接已复制，发给别人即可看到同样的对比' : '复制失败，请从地址栏复制链接',
      copied ? 'success' : 'error',
    );
  };

  return (
    <div className="compare-board-wrap">
      {view.shared && (
        <div className="compare-shared" role="status">
          <p>这是一份分享的对比，共 {view.fonts.length} 款字体；你自己的对比列表没有改动。</p>
          <button type="button" className="btn" onClick={keepSharedCompare}>
            保存为我的对比列表
          </button>
        </div>
      )}
      <div className="compare-bar">
        <Segmented<CompareMode>
          legend="排列"
          name="compare-mode"
          options={[
            { value: 'side', label: '并排' },
            { value: 'stack', label: '堆叠' },
          ]}
          value={view.mode}
          onChange={(mode) => setCompareView({ mode })}
        />
        <button type="button" className="btn" onClick={() => void share()} disabled={view.fonts.length === 0}>
          复制对比链接
        </button>
      </div>
      <CompareSearch chosen={view.fonts} onAdd={add} />
      {started && view.fonts.length === 0 ? (
        <div className="compare-empty">
          <p>对比列表还是空的。</p>
          <p>
            在上方搜索，或在<a href="/font">字体库</a>中点击字体旁的「对比」按钮加入。
          </p>
        </div>
      ) : (
        <div className={`compare-board compare-board--${view.mode}`} ref={board}>
          {view.fonts.map((gno) => {
            const font = details[gno];
            return (
              <CompareCard
                key={gno}
                gno={gno}
                font={font ?? undefined}
                weight={tester.weights[gno]}
                text={text}
                lang={sampleLang(scriptLabelOf(font?.script ?? '1'))}
                onWeight={(weight) => setRowWeight(gno, weight)}
                onRemove={() => remove(gno)}
              />
            );
          })}
        </div>
      )}
      {view.fonts.length >= 2 && (
        <GlyphOverlay
          fonts={view.fonts.map((gno) => {
            const font = details[gno];
            const child = font ? nearestChild(font, tester.weights[gno] ?? 400) : undefined;
            return { gno, name: font?.familyName ?? gno, face: child?.fontGNo ?? gno };
          })}
          chosen={view.overlay}
          char={view.char || [...text.replace(/\s/g, '')][0] || '永'}
          onChange={(overlay, char) => setCompareView({ overlay, char })}
        />
      )}
    </div>
  );
}
