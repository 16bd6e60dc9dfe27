import { type ReactElement, useEffect, useId, useMemo, useRef, useState } from 'react';
import { type ChildFontResource, type FontResource, getFontList } from '../../api/fonts.ts';
import { weightLabel } from '../../components/font/font-format.ts';
import { debounce } from '../fonts/font-previews.ts';
import { librarySource } from './library-source.ts';
import type { PickedFont } from './picked-font.ts';

interface Props {
  onChange: (font: PickedFont | null) => void;
}

/** Families shown at once: enough to choose from, few enough to scan. */
const RESULTS = 8;

const childWeight = (child: ChildFontResource) => Number(child['weight'] ?? 400);
const childItalic = (child: ChildFontResource) => Boolean(child['italic']);

/** The regular weight of a family, or the one nearest to it. */
function defaultChild(font: FontResource): ChildFontResource | undefined {
  return [...font.childFontResource].sort(
    (a, b) =>
      Math.abs(childWeight(a) - 400) +
      (childItalic(a) ? 1000 : 0) -
      Math.abs(childWeight(b) - 400) -
      (childItalic(b) ? 1000 : 0),
  )[0];
}

/**
 * A searchable choice of a library font: a search box over the font list (most downloaded first
 * when empty), the matches as radio buttons, then the weight when the family has several.
 */
export function LibraryFontPicker({ onChange }: Props): ReactElement {
  const searchId = useId();
  const weightId = useId();
  const [keyword, setKeyword] = useState('');
  const [fonts, setFonts] = useState<FontResource[] | null>(null);
  const [chosen, setChosen] = useState<FontResource | null>(null);
  const [childGno, setChildGno] = useState('');
  const request = useRef(0);

  const search = useMemo(
    () =>
      debounce((value: string) => {
        const run = ++request.current;
        getFontList({ keyword: value.trim() || undefined, size: RESULTS })
          .then((page) => run === request.current && setFonts(page.records))
          .catch(() => run === request.current && setFonts([]));
      }),
    [],
  );
  useEffect(() => search(keyword), [keyword, search]);

  function choose(font: FontResource, child = defaultChild(font)): void {
    setChosen(font);
    setChildGno(child?.fontGNo ?? '');
    const source = child && librarySource(child);
    onChange(source ? { source, label: font.familyName, faces: 1 } : null);
  }

  // The chosen family stays in the list while the visitor searches on.
  const shown = chosen && fonts && !fonts.some((f) => f.fontGNo === chosen.fontGNo) ? [chosen, ...fonts] : fonts;
  return (
    <div className="library-picker">
      <label className="tool-field" htmlFor={searchId}>
        <span className="tool-field__label">搜索字体库</span>
        <input
          id={searchId}
          className="input"
          type="search"
          value={keyword}
          maxLength={50}
          placeholder="输入字体名称，如 黑体、楷书"
          onChange={(event) => setKeyword(event.target.value)}
        />
      </label>
      <fieldset className="library-picker__list">
        <legend className="visually-hidden">选择字体</legend>
        {shown === null && <p className="library-picker__note">正在读取字体库…</p>}
        {shown?.length === 0 && <p className="library-picker__note">没有找到这款字体，换个关键词试试。</p>}
        {shown?.map((font) => (
          <label key={font.fontGNo} className="library-picker__option">
            <input
              type="radio"
              name={`${searchId}-font`}
              checked={chosen?.fontGNo === font.fontGNo}
              onChange={() => choose(font)}
            />
            <span className="library-picker__name">{font.familyName}</span>
            <span className="library-picker__meta">
              {font.fontFamily} · {font.childFontResource.length} 个字重
            </span>
          </label>
        ))}
      </fieldset>
      {chosen && !chosen.childFontResource.some((child) => librarySource(child)) && (
        <p className="tool-note tool-note--warning" role="status">
          这款字体暂时不能在线处理，请改为上传字体文件。
        </p>
      )}
      {chosen && chosen.childFontResource.length > 1 && (
        <label className="tool-field" htmlFor={weightId}>
          <span className="tool-field__label">字重</span>
          <select
            id={weightId}
            className="input"
            value={childGno}
            onChange={(event) => {
              const child = chosen.childFontResource.find((c) => c.fontGNo === event.target.value);
              if (child) choose(chosen, child);
            }}
          >
            {chosen.childFontResource.map((child) => (
              <option key={child.fontGNo} value={child.fontGNo}>
                {String(child['styleName'] ?? '')} · {weightLabel(childWeight(child), childItalic(child))}
              </option>
            ))}
          </select>
        </label>
      )}
    </div>
  );
}
