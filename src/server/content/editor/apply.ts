import { parseAlbumForm, parseArticleForm, parseCaseForm } from './forms.ts';
import { saveAlbum, saveArticle, saveCase, setAlbumStatus, setArticleStatus, setCaseStatus } from './save.ts';

/** What the editing area edits. */
export const EDIT_TYPES = ['article', 'album', 'case'] as const;
/** One kind of item the editing area edits. */
export type EditType = (typeof EDIT_TYPES)[number];
/** What a submit does beyond saving: nothing, publish, or take back to draft. */
export type EditAction = 'save' | 'publish' | 'unpublish';

/** Saved with its id, or refused with a Chinese message per field. */
export type EditResult = { ok: true; id: number } | { ok: false; errors: Record<string, string> };

/**
 * Saves one editor form (new when `id` is undefined) and applies its action. Every save purges the
 * pages that show the item (the save functions call contentChanged).
 */
export async function applyEditorForm(type: EditType, id: number | undefined, form: FormData): Promise<EditResult> {
  const action = String(form.get('action') ?? 'save') as EditAction;
  const status = action === 'publish' ? 'published' : 'draft';
  if (type === 'article') {
    const parsed = parseArticleForm(form);
    if (!parsed.ok) return parsed;
    const saved = await saveArticle(id, parsed.value);
    if (action !== 'save') await setArticleStatus(saved, status);
    return { ok: true, id: saved };
  }
  if (type === 'album') {
    const parsed = parseAlbumForm(form);
    if (!parsed.ok) return parsed;
    const saved = await saveAlbum(id, parsed.value);
    if (action !== 'save') await setAlbumStatus(saved, status);
    return { ok: true, id: saved };
  }
  const parsed = parseCaseForm(form);
  if (!parsed.ok) return parsed;
  const saved = await saveCase(id, parsed.value);
  if (action !== 'save') await setCaseStatus(saved, status);
  return { ok: true, id: saved };
}
