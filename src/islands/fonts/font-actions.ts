// The star (favourite) and compare buttons of font pages, kept in step with the user's favourites
// and the compare list wherever they change.
import { addFavoriteFont, deleteFavoriteFont } from '../../api/user-data.ts';
import { goLive } from '../../lib/early-clicks.ts';
import { addCompare, isCompared, removeCompare, restoreCompare } from '../../stores/compare.ts';
import { showToast } from '../../stores/toast.ts';
import { $compareFonts, $favoriteFonts, isLoggedIn, loadFavoriteFonts, openAccountModal } from '../../stores/user.ts';

/** The gnos the user has starred (the group with id 0 holds the star button's favourites). */
function starredGnos(): Set<string> {
  const groups = $favoriteFonts.get();
  const starred = groups.find((group) => String(group.id ?? 0) === '0') ?? groups[0];
  return new Set((starred?.fontList ?? []).map((font) => font.fontGNo));
}

/** Sets every star and compare button of the page to the user's favourites and compare list. */
export function paintFontActions(): void {
  const starred = starredGnos();
  for (const button of document.querySelectorAll<HTMLButtonElement>('[data-favorite-gno]')) {
    const on = starred.has(button.dataset['favoriteGno'] ?? '');
    button.setAttribute('aria-pressed', String(on));
    const label = button.querySelector('[data-label]');
    if (label) label.textContent = on ? '已收藏' : '收藏';
  }
  for (const button of document.querySelectorAll<HTMLButtonElement>('[data-compare-gno]')) {
    const on = isCompared(button.dataset['compareGno'] ?? '');
    button.setAttribute('aria-pressed', String(on));
    const label = button.querySelector('[data-label]');
    if (label) label.textContent = on ? '已加入对比' : '对比';
  }
}

async function toggleFavorite(button: HTMLButtonElement): Promise<void> {
  if (!isLoggedIn()) {
    openAccountModal('login');
    return;
  }
  const fontGNo = button.dataset['favoriteGno'] ?? '';
  button.disabled = true;
  try {
    // The user's favourites are read afresh first: a click kept from before the page's script ran
    // (or made in another tab meanwhile) must toggle from what the server holds, not from an empty list.
    await loadFavoriteFonts();
    const starred = starredGnos().has(fontGNo);
    if (starred) await deleteFavoriteFont({ fontGNo });
    else await addFavoriteFont({ fontGNo });
    await loadFavoriteFonts();
    showToast(starred ? '已取消收藏' : '收藏成功', 'success');
  } catch {
    // The client already showed the server's message.
  } finally {
    button.disabled = false;
  }
}

function toggleCompare(button: HTMLButtonElement): void {
  const id = button.dataset['compareGno'] ?? '';
  if (isCompared(id)) removeCompare(id);
  else addCompare({ id, familyName: button.dataset['familyName'] ?? id });
}

/** Wires every star and compare button of the page (present and future) and keeps their state. */
export function installFontActions(): void {
  restoreCompare();
  document.addEventListener('click', (event) => {
    const target = event.target as Element | null;
    const favorite = target?.closest<HTMLButtonElement>('[data-favorite-gno]');
    if (favorite) void toggleFavorite(favorite);
    const compare = target?.closest<HTMLButtonElement>('[data-compare-gno]');
    if (compare) toggleCompare(compare);
  });
  $favoriteFonts.listen(paintFontActions);
  $compareFonts.listen(paintFontActions);
  paintFontActions();
  goLive('[data-favorite-gno], [data-compare-gno]');
}
