import { atom, computed } from 'nanostores';
import type { FontDict, FontDicts } from '../api/fonts.ts';
import { readStoredJson, writeStorage } from '../lib/storage.ts';
import type { TesterState } from '../lib/type-tester.ts';
import { $tester, setTester } from './type-tester.ts';

/** How the font library lists families. */
export type ListLayout = 'Table' | 'Grid';

/** The library's layout; SPEC §9 default `Table`. */
export const $listLayout = atom<ListLayout>('Table');
/** The font dictionary, grouped by key; empty until loaded. */
export const $fontDicts = atom<FontDicts>({});
/**
 * The sample text of the previews: the visitor's own, or '' while each face shows its own default
 * sample (of its script, in characters it has). The type tester owns it.
 */
export const $sampleText = computed($tester, (state) => state.text);

let dictRequest: Promise<FontDicts> | undefined;

/** Loads the font dictionary once; later calls (even concurrent ones) reuse the same answer. */
export function loadFontDicts(): Promise<FontDicts> {
  dictRequest ??= import('../api/fonts.ts')
    .then(({ getFontDicts }) => getFontDicts())
    .then((dicts) => {
      $fontDicts.set(dicts ?? {});
      return $fontDicts.get();
    })
    .catch((error: unknown) => {
      dictRequest = undefined; // let the next caller try again
      throw error;
    });
  return dictRequest;
}

/** The entry of group `key` with this `dictNumber`, compared as text (SPEC §3). */
export function findDict(dicts: FontDicts, key: string, dictNumber: string | number): FontDict | undefined {
  return dicts[key]?.find((entry) => String(entry.dictNumber) === String(dictNumber));
}

/** Chooses the library layout. */
export function setListLayout(layout: ListLayout): void {
  $listLayout.set(layout);
}

/** Sets the preview text; an empty text goes back to each face's own default sample. */
export function setSampleText(text: string): void {
  setTester({ text: text.trim() });
}

// The visitor's sample text and type-tester settings follow them from the library to a font's page, for this visit
// (as Google Fonts keeps them), without putting them into the cached page's address.
const SAMPLE_KEY = 'fontSample';

/** What the visitor last typed or chose on the library page. */
export interface RememberedSample {
  text?: string;
  /** The rest of the type tester's settings (direction, line height, colours …). */
  tester?: Partial<TesterState>;
}

/** Keeps the sample text and/or settings for the rest of the visit. */
export function rememberSample(change: RememberedSample): void {
  writeStorage(SAMPLE_KEY, JSON.stringify({ ...rememberedSample(), ...change }), 'sessionStorage');
}

/** The sample text and settings kept for this visit. */
export function rememberedSample(): RememberedSample {
  return readStoredJson<RememberedSample>(SAMPLE_KEY, {}, 'sessionStorage');
}
