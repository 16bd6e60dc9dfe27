import { readStoredJson, writeStorage } from '../lib/storage.ts';
import { showToast } from './toast.ts';
import { $compareFonts, type CompareFont } from './user.ts';

/** Where the compare list is kept between visits. */
export const COMPARE_STORAGE_KEY = 'compareFonts';

/** SPEC §5 and §8: the compare list's messages. */
export const COMPARE_MESSAGES = {
  duplicate: '这款字体已在对比列表中，请勿重复添加',
  missing: '对比列表中没有这款字体',
  added: '已加入字体对比',
  removed: '已从字体对比中移除',
} as const;

/** The outcome of a compare action: whether it changed the list, and the message shown. */
export interface CompareResult {
  ok: boolean;
  message: string;
}

const sameId = (a: CompareFont['id'], b: CompareFont['id']) => String(a) === String(b);

function persist(list: CompareFont[]): void {
  $compareFonts.set(list);
  writeStorage(COMPARE_STORAGE_KEY, JSON.stringify(list));
}

/** Reads the stored compare list into the store (SPEC §4: restored on demand). */
export function restoreCompare(): CompareFont[] {
  const stored = readStoredJson<unknown>(COMPARE_STORAGE_KEY, []);
  const list = Array.isArray(stored)
    ? stored.filter((item): item is CompareFont => typeof item === 'object' && item !== null && 'id' in item)
    : [];
  $compareFonts.set(list);
  return list;
}

/** True when the font with this id is on the compare list. */
export function isCompared(id: CompareFont['id']): boolean {
  return $compareFonts.get().some((font) => sameId(font.id, id));
}

/** Adds a font to the compare list; a font already there is refused. */
export function addCompare(font: CompareFont): CompareResult {
  if (isCompared(font.id)) {
    showToast(COMPARE_MESSAGES.duplicate, 'warning');
    return { ok: false, message: COMPARE_MESSAGES.duplicate };
  }
  persist([...$compareFonts.get(), font]);
  showToast(COMPARE_MESSAGES.added, 'success');
  return { ok: true, message: COMPARE_MESSAGES.added };
}

/** Removes a font from the compare list; removing one that is not there is refused. */
export function removeCompare(id: CompareFont['id']): CompareResult {
  if (!isCompared(id)) {
    showToast(COMPARE_MESSAGES.missing, 'warning');
    return { ok: false, message: COMPARE_MESSAGES.missing };
  }
  persist($compareFonts.get().filter((font) => !sameId(font.id, id)));
  showToast(COMPARE_MESSAGES.removed, 'success');
  return { ok: true, message: COMPARE_MESSAGES.removed };
}

/** Empties the compare list. */
export function clearCompare(): void {
  persist([]);
}

/**
 * Makes the compare list these family gnos, in this order (the compare page's own edits, or a
 * shared comparison the visitor keeps); names already known are kept, others given by `names`.
 */
export function saveCompare(gnos: readonly string[], names: Readonly<Record<string, string>> = {}): void {
  const known = new Map($compareFonts.get().map((font) => [String(font.id), font]));
  persist(
    gnos.map((gno) => {
      const font = known.get(gno);
      const familyName = names[gno] ?? font?.familyName;
      return { ...font, id: gno, ...(familyName ? { familyName } : {}) };
    }),
  );
}
