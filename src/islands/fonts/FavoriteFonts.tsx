import { useStore } from '@nanostores/react';
import { type ReactElement, useEffect, useRef, useState } from 'react';
import {
  addFavoriteFont,
  addFontGroup,
  deleteFavoriteFont,
  deleteFontGroup,
  getFontGroupDetail,
  updateFontGroup,
} from '../../api/user-data.ts';
import { type FavoriteFontResource, scriptLabelOf } from '../../contract/fonts.ts';
import { sampleLang } from '../../lib/type-tester.ts';
import { showToast } from '../../stores/toast.ts';
import { $favoriteFonts, loadFavoriteFonts } from '../../stores/user.ts';
import { loadPreviews } from './font-previews.ts';

const STARRED = '我的收藏';

/**
 * The user's favourite fonts: the starred list (group 0) and named groups, each with its families
 * drawn in their own font. Groups are created, renamed and deleted in place; a font can be copied
 * into a named group or removed from the one shown.
 */
export default function FavoriteFonts(): ReactElement {
  const groups = useStore($favoriteFonts);
  const [active, setActive] = useState(0);
  const [fonts, setFonts] = useState<FavoriteFontResource[] | null>(null);
  const [newName, setNewName] = useState('');
  const [renaming, setRenaming] = useState<string | null>(null);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const list = useRef<HTMLUListElement>(null);
  const shown = groups.length > 0 ? groups : [{ id: 0, name: STARRED, fontList: [] }];
  const group = shown.find((entry) => Number(entry.id ?? 0) === active);
  const named = shown.filter((entry) => Number(entry.id ?? 0) !== 0);

  useEffect(() => {
    void loadFavoriteFonts().catch(() => undefined);
  }, []);

  // A change to the groups (a font removed elsewhere) reloads the list. Only the answer for the
  // group shown now is taken: creating a group reloads the groups while group 0 is still shown, and
  // that older answer can arrive after the new group's.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the groups are a reason to ask again, not an input.
  useEffect(() => {
    let current = true;
    setFonts(null);
    getFontGroupDetail(active)
      .then((detail) => current && setFonts(detail.fontList))
      .catch(() => current && setFonts([]));
    return () => {
      current = false;
    };
  }, [active, groups]);

  useEffect(() => {
    if (fonts && fonts.length > 0 && list.current) void loadPreviews(list.current);
  }, [fonts]);

  const choose = (id: number) => {
    setActive(id);
    setRenaming(null);
    setConfirmingDelete(false);
  };
  const create = async () => {
    const name = newName.trim();
    if (!name) return;
    const created = await addFontGroup({ name }).catch(() => undefined);
    if (!created) return;
    setNewName('');
    await loadFavoriteFonts();
    choose(Number(created.id));
    showToast(`已新建收藏夹「${name}」`, 'success');
  };
  const rename = async () => {
    const name = renaming?.trim();
    if (!name) return;
    const done = await updateFontGroup(active, { name })
      .then(() => true)
      .catch(() => false);
    if (!done) return;
    setRenaming(null);
    await loadFavoriteFonts();
  };
  const remove = async () => {
    const done = await deleteFontGroup(active)
      .then(() => true)
      .catch(() => false);
    if (!done) return;
    showToast(`已删除收藏夹「${group?.name ?? ''}」`, 'success');
    choose(0);
    await loadFavoriteFonts();
  };
  const unstar = async (fontGNo: string) => {
    const done = await deleteFavoriteFont(active ? { fontGNo, groupId: active } : { fontGNo })
      .then(() => true)
      .catch(() => false);
    if (!done) return;
    showToast(active ? '已从收藏夹移除' : '已取消收藏', 'success');
    await loadFavoriteFonts();
  };
  const copyTo = async (fontGNo: string, groupId: number) => {
    const target = named.find((entry) => Number(entry.id) === groupId);
    const done = await addFavoriteFont({ fontGNo, groupId })
      .then(() => true)
      .catch(() => false);
    if (!done) return;
    showToast(`已加入收藏夹「${target?.name ?? ''}」`, 'success');
    await loadFavoriteFonts();
  };

  return (
    <section className="favorites" aria-labelledby="favorite-fonts-title">
      <h2 id="favorite-fonts-title">收藏的字体</h2>
      <div className="favorites__bar">
        <ul className="favorites__groups" aria-label="收藏夹">
          {shown.map((entry) => (
            <li key={String(entry.id ?? 0)}>
              <button
                type="button"
                aria-pressed={Number(entry.id ?? 0) === active}
                className="favorites__group"
                onClick={() => choose(Number(entry.id ?? 0))}
              >
                {entry.name ?? STARRED} <small>{entry.fontList.length}</small>
              </button>
            </li>
          ))}
        </ul>
        <form
          className="favorites__form"
          onSubmit={(event) => {
            event.preventDefault();
            void create();
          }}
        >
          <input
            className="input"
            value={newName}
            maxLength={20}
            placeholder="新收藏夹名称"
            aria-label="新收藏夹名称"
            onChange={(event) => setNewName(event.target.value)}
          />
          <button type="submit" className="btn" disabled={!newName.trim()}>
            新建
          </button>
        </form>
      </div>

      {active !== 0 && renaming === null && !confirmingDelete && (
        <div className="favorites__tools">
          <button type="button" className="btn btn--ghost" onClick={() => setRenaming(group?.name ?? '')}>
            重命名
          </button>
          <button type="button" className="btn btn--ghost" onClick={() => setConfirmingDelete(true)}>
            删除收藏夹
          </button>
        </div>
      )}
      {renaming !== null && (
        <form
          className="favorites__form"
          onSubmit={(event) => {
            event.preventDefault();
            void rename();
          }}
        >
          <input
            className="input"
            value={renaming}
            maxLength={20}
            aria-label="收藏夹的新名称"
            // biome-ignore lint/a11y/noAutofocus: the field appears because the user asked to rename.
            autoFocus
            onChange={(event) => setRenaming(event.target.value)}
            onKeyDown={(event) => event.key === 'Escape' && setRenaming(null)}
          />
          <button type="submit" className="btn" disabled={!renaming.trim()}>
            保存
          </button>
          <button type="button" className="btn btn--ghost" onClick={() => setRenaming(null)}>
            取消
          </button>
        </form>
      )}
      {confirmingDelete && (
        <div className="favorites__confirm" role="alert">
          <p>
            删除收藏夹「{group?.name}」？只删除这个收藏夹，「{STARRED}」里的字体不受影响。
          </p>
          <button type="button" className="btn btn--primary" onClick={remove}>
            删除
          </button>
          <button type="button" className="btn btn--ghost" onClick={() => setConfirmingDelete(false)}>
            取消
          </button>
        </div>
      )}

      {fonts === null ? (
        <p className="favorites__empty">正在读取…</p>
      ) : fonts.length === 0 ? (
        <p className="favorites__empty">
          {active === 0 ? (
            <>
              这里还没有字体。在<a href="/font">字体库</a>或字体详情页点击「收藏」即可加入。
            </>
          ) : (
            `「${group?.name ?? ''}」还是空的：在「${STARRED}」里把字体加入这个收藏夹。`
          )}
        </p>
      ) : (
        <ul className="favorites__fonts" ref={list}>
          {fonts.map((font) => (
            <li key={font.fontGNo}>
              <a href={`/font/${font.fontGNo}`}>{font.familyName}</a>
              <p data-preview-gno={font.fontGNo} lang={sampleLang(scriptLabelOf(font.script))}>
                {font.sample}
              </p>
              <div className="favorites__font-actions">
                {named.some((entry) => Number(entry.id) !== active) && (
                  <select
                    className="input"
                    aria-label={`把${font.familyName}加入收藏夹`}
                    value=""
                    onChange={(event) => void copyTo(font.fontGNo, Number(event.target.value))}
                  >
                    <option value="">加入收藏夹…</option>
                    {named
                      .filter((entry) => Number(entry.id) !== active)
                      .map((entry) => (
                        <option key={String(entry.id)} value={String(entry.id)}>
                          {entry.name}
                        </option>
                      ))}
                  </select>
                )}
                <button type="button" className="btn btn--ghost" onClick={() => unstar(font.fontGNo)}>
                  {active === 0 ? '取消收藏' : '移出收藏夹'}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
