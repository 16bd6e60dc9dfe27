import { atom } from 'nanostores';
import { restoreCompare, saveCompare } from './compare.ts';
import { $compareFonts } from './user.ts';

// What the compare page shows, with the address as its source of truth, so a comparison is a link:
// `/user/compare?fonts=a,b,c&mode=side&ov=a,b&ch=永` (the text, size and per-font weights are the
// type tester's: text, px, w). Opened without `fonts`, the page shows the visitor's own compare
// list and writes it into the address. Opened with a list that is not the visitor's (a link someone
// sent), it shows that list as sent and leaves the visitor's own list alone until they keep it.

/** Side by side (columns) or stacked (rows). */
export type CompareMode = 'side' | 'stack';

/** The compare page's own state. */
export interface CompareView {
  /** Family gnos, in order. */
  fonts: string[];
  /** True when the fonts came from a link and differ from the visitor's own list. */
  shared: boolean;
  mode: CompareMode;
  /** The two faces of the glyph overlay (family gnos), empty for the first two. */
  overlay: string[];
  /** The overlay's character, '' for the first of the text. */
  char: string;
}

/** Most fonts one comparison shows. */
export const MAX_COMPARED = 12;
const GNO = /^[a-z0-9][a-z0-9-]{0,63}$/;

export const $compareView = atom<CompareView>({ fonts: [], shared: false, mode: 'side', overlay: [], char: '' });

const listOf = (value: string | null) =>
  [
    ...new Set(
      (value ?? '')
        .split(',')
        .map((gno) => gno.trim())
        .filter((gno) => GNO.test(gno)),
    ),
  ].slice(0, MAX_COMPARED);
const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((gno, i) => gno === b[i]);
const ownList = () => $compareFonts.get().map((font) => String(font.id));

/** Reads the view from an address; without `fonts`, the visitor's own list. */
export function readCompareView(params: URLSearchParams): CompareView {
  const own = ownList();
  const linked = params.has('fonts') ? listOf(params.get('fonts')) : undefined;
  const fonts = linked ?? own;
  return {
    fonts,
    shared: linked !== undefined && !sameList(linked, own),
    mode: params.get('mode') === 'stack' ? 'stack' : 'side',
    overlay: listOf(params.get('ov')).slice(0, 2),
    char: [...(params.get('ch') ?? '').trim()].slice(0, 1).join(''),
  };
}

/** Writes the view's keys into `params`. */
export function writeCompareView(params: URLSearchParams, view: CompareView): URLSearchParams {
  for (const key of ['fonts', 'mode', 'ov', 'ch']) params.delete(key);
  if (view.fonts.length > 0) params.set('fonts', view.fonts.join(','));
  if (view.mode !== 'side') params.set('mode', view.mode);
  if (view.overlay.length === 2) params.set('ov', view.overlay.join(','));
  if (view.char) params.set('ch', view.char);
  return params;
}

let started = false;

/** Reads the view from the page's address and keeps the address (and, when it is theirs, the visitor's list) in step. */
export function startCompareView(): void {
  restoreCompare();
  $compareView.set(readCompareView(new URLSearchParams(location.search)));
  if (started) return;
  started = true;
  $compareView.subscribe((view) => {
    const url = new URL(location.href);
    writeCompareView(url.searchParams, view);
    if (url.href !== location.href) history.replaceState(history.state, '', url);
  });
  // The visitor's own list changing elsewhere (the tray, another tab) shows here while it is what the page shows.
  $compareFonts.listen(() => {
    const view = $compareView.get();
    if (!view.shared) $compareView.set({ ...view, fonts: ownList() });
  });
  addEventListener('popstate', () => $compareView.set(readCompareView(new URLSearchParams(location.search))));
}

/** Changes the view; a change of fonts on the visitor's own list changes that list too. */
export function setCompareView(change: Partial<CompareView>): void {
  const view = { ...$compareView.get(), ...change };
  $compareView.set(view);
  if (change.fonts && !view.shared) saveCompare(view.fonts);
}

/** Keeps a shared comparison as the visitor's own compare list. */
export function keepSharedCompare(): void {
  const view = $compareView.get();
  saveCompare(view.fonts);
  $compareView.set({ ...view, shared: false });
}
