import { useStore } from '@nanostores/react';
import { type ReactElement, useEffect, useRef, useState } from 'react';
import type { FontResource } from '../../api/fonts.ts';
import {
  addFontGroup,
  deleteFavoriteFont,
  deleteFontGroup,
  getFontGroupDetail,
  updateFontGroup,
} from '../../api/user-data.ts';
import { showToast } from '../../stores/toast.ts';
import { $favoriteFonts, loadFavoriteFonts } from '../../stores/user.ts';
import { loadPreviews } from './font-previews.ts';

const SAMPLE = '永和九年，岁在癸丑';

/**
 * The user's favourite fonts: the starred list (group 0) and named groups, each with its families
 * drawn in their own font; groups can be created, renamed and deleted, fonts removed.
 */
export default function FavoriteFonts(): ReactElement {
  const groups = useStore($favoriteFonts);
  const [active, setActive] = useState(0);
  const [fonts, setFonts] = useState<FontResource[] | null>(null);
  const [name, setName] = useState('');
  const list = useRef<HTMLUListElement>(null);
  const group = groups.find((entry) => Number(entry.id ?? 0) === active);

  useEffect(() => {
    void loadFavoriteFonts().catch(() => undefined);
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a change to the groups (a font removed elsewhere) reloads the list.
  useEffect(() => {
    setFonts(null);
    getFontGroupDetail(active)
      .then((detail) => setFonts((detail['fontList'] as FontResource[] | undefined) ?? []))
      .catch(() => setFonts([]));
  }, [active, groups]);

  useEffect(() => {
    if (fonts && fonts.length > 0 && list.current) void loadPreviews(list.current);
  }, [fonts]);

  const create = async () => {
    if (!name.trim()) return;
    const created = await addFontGroup({ name: name.trim() }).catch(() => undefined);
    if (!created) return;
    setName('');
    await loadFavoriteFonts();
    setActive(Number(created.id));
  };
  const rename = async () => {
    const next = window.prompt('新的收藏夹名称', group?.name ?? '')?.trim();
    if (!next) return;
    await updateFontGroup(active, { name: next }).catch(() => undefined);
    await loadFavoriteFonts();
  };
  const remove = async () => {
    if (!window.confirm(`删除收藏夹「${group?.name ?? ''}」？其中的字体不会受影响。`)) return;
    await deleteFontGroup(active).catch(() => undefined);
    setActive(0);
    await loadFavoriteFonts();
  };
  const unstar = async (fontGNo: string) => {
    await deleteFavoriteFont(active ? { fontGNo, groupId: active } : { fontGNo }).catch(() => undefined);
    showToast('已取消收藏', 'success');
    await loadFavoriteFonts();
  };

  return (
    <section className="favorites" aria-labelledby="favorite-fonts-title">
      <h2 id="favorite-fonts-title">收藏的字体</h2>
      <div className="favorites__groups" role="tablist" aria-label="收藏夹">
        {(groups.length > 0 ? groups : [{ id: 0, name: '我的收藏', fontList: [] }]).map((entry) => (
          <button
            key={String(entry.id ?? 0)}
            type="button"
            role="tab"
            aria-selected={Number(entry.id ?? 0) === active}
            className="favorites__group"
            onClick={() => setActive(Number(entry.id ?? 0))}
          >
            {entry.name ?? '我的收藏'} <small>{entry.fontList.length}</small>
          </button>
        ))}
        <form
          className="favorites__new"
          onSubmit={(event) => {
            event.preventDefault();
            void create();
          }}
        >
          <input
            className="input"
            value={name}
            maxLength={20}
            placeholder="新建收藏夹"
            aria-label="新收藏夹名称"
            onChange={(event) => setName(event.target.value)}
          />
          <button type="submit" className="btn">
            新建
          </button>
        </form>
      </div>
      {active !== 0 && (
        <div className="favorites__tools">
          <button type="button" className="btn btn--ghost" onClick={rename}>
            重命名
          </button>
          <button type="button" className="btn btn--ghost" onClick={remove}>
            删除收藏夹
          </button>
        </div>
      )}
      {fonts === null ? (
        <p className="favorites__empty">正在读取…</p>
      ) : fonts.length === 0 ? (
        <p className="favorites__empty">
          这里还没有字体。在<a href="/font">字体库</a>或字体详情页点击「收藏」即可加入。
        </p>
      ) : (
        <ul className="favorites__fonts" ref={list}>
          {fonts.map((font) => (
            <li key={font.fontGNo}>
              <a href={`/font/${font.fontGNo}`}>{font.familyName}</a>
              <p data-preview-gno={font.fontGNo}>{SAMPLE}</p>
              <button type="button" className="btn btn--ghost" onClick={() => unstar(font.fontGNo)}>
                移除
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
