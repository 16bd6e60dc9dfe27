// Draws every preview of a page in its own font with one request to the subset service: each
// element marked `data-preview-gno` asks for the characters of its text (or `data-preview-text`),
// and the answer carries each font's WOFF2 itself, which becomes a FontFace of the page. One also
// marked `data-preview-optional` (a heading) takes the face only if the face has all of its characters.
import { type SubsetResultItem, subsetFonts } from '../../api/fonts.ts';

/** The longest the previews wait for their slowest face before switching the others. */
const SWITCH_AFTER_MS = 3000;
let generation = 0;
/** The faces the page shows now; the next texts' faces replace them. */
let shown: FontFace[] = [];

function previewText(element: HTMLElement): string {
  return element.dataset['previewText'] ?? element.textContent ?? '';
}

function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  const native = (Uint8Array as { fromBase64?: (text: string) => Uint8Array<ArrayBuffer> }).fromBase64;
  if (native) return native(text);
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** A face for one answer item: from the bytes it carries, else from its WOFF2's address. */
function faceOf(family: string, result: SubsetResultItem): { face: FontFace; bytes: number } {
  if (result.woff2) {
    const bytes = decodeBase64(result.woff2);
    return { face: new FontFace(family, bytes, { display: 'swap' }), bytes: bytes.byteLength };
  }
  return { face: new FontFace(family, `url('${result.woffPath}') format('woff2')`, { display: 'swap' }), bytes: 0 };
}

/** Lazy previews that have come near the screen, and the watcher that notices them. */
const revealed = new WeakSet<Element>();
let watcher: IntersectionObserver | undefined;
// Set when a page first loads previews: this module is also imported on the server, where there is no document.
let watchedRoot: ParentNode | undefined;

/**
 * Watches previews marked `data-preview-lazy` (a font page's weights and glyph table, the library's
 * lower rows): each is loaded once it comes within a screen of the viewport, so the first paint
 * decodes only the faces the visitor sees.
 */
function watchLazy(elements: HTMLElement[], root: ParentNode): void {
  watchedRoot = root;
  if (typeof IntersectionObserver === 'undefined') {
    for (const element of elements) revealed.add(element);
    return;
  }
  watcher ??= new IntersectionObserver(
    (entries) => {
      let any = false;
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        revealed.add(entry.target);
        watcher?.unobserve(entry.target);
        any = true;
      }
      if (any) revealSoon();
    },
    { rootMargin: '100% 0px' },
  );
  for (const element of elements) watcher.observe(element);
}
const revealSoon = debounce(() => void loadPreviews(watchedRoot ?? document), 50);

/** The @font-face name of a subset: the same subset keeps its name, so a face already drawn is not swapped. */
function familyOf(result: { gno: string; woffPath: string }): string {
  const digest = /([0-9a-f]{8,})\.woff2$/.exec(result.woffPath)?.[1]?.slice(0, 12) ?? String(generation);
  return `fa-preview-${digest}-${result.gno}`;
}

/**
 * Loads preview fonts for every `[data-preview-gno]` inside `root`: one POST /webfont/http for all of
 * them (one item per font, holding the characters of all its previews) that answers with the WOFF2
 * bytes, then one FontFace per font (the text shows in the fallback until it is ready). Previews
 * marked `data-preview-lazy` join once they come near the screen. Resolves once every face has
 * loaded; a failure leaves the fallback font in place.
 */
export async function loadPreviews(root: ParentNode = document): Promise<void> {
  const all = [...root.querySelectorAll<HTMLElement>('[data-preview-gno]')];
  const elements = all.filter((element) => !('previewLazy' in element.dataset) || revealed.has(element));
  watchLazy(
    all.filter((element) => !elements.includes(element)),
    root,
  );
  if (elements.length === 0) return;
  const texts = new Map<string, string>();
  for (const element of elements) {
    const gno = element.dataset['previewGno'] ?? '';
    texts.set(gno, (texts.get(gno) ?? '') + previewText(element));
  }
  const items = [...texts].map(([gno, text]) => ({ gno, text: [...new Set(text)].join('') || gno }));
  const run = ++generation;
  const results = await subsetFonts(items, { embed: true }).catch(() => []);
  if (run !== generation) return; // a newer text is on its way
  const faces: FontFace[] = [];
  const families = new Map<string, string>();
  let fontBytes = 0;
  for (const result of results) {
    const family = familyOf(result);
    families.set(result.gno, family);
    // The same subset keeps its family name, so a face already on the page is kept, not decoded again.
    const kept = shown.find((face) => face.family === family || face.family === `"${family}"`);
    if (kept) {
      faces.push(kept);
      continue;
    }
    const { face, bytes } = faceOf(family, result);
    fontBytes += bytes;
    faces.push(face);
    document.fonts.add(face);
  }
  // Every face is loaded first and then all previews switch at once: one restyle and relayout of
  // the page instead of one per face as each arrives. A face slower than that waits no one.
  await Promise.race([
    Promise.all(faces.map((face) => face.load().catch(() => undefined))),
    new Promise((resolve) => setTimeout(resolve, SWITCH_AFTER_MS)),
  ]);
  if (run !== generation) return;
  for (const face of shown) if (!faces.includes(face)) document.fonts.delete(face);
  shown = faces;
  const missingOf = new Map(results.map((result) => [result.gno, new Set(result.missing ?? '')]));
  for (const element of elements) {
    const gno = element.dataset['previewGno'] ?? '';
    const family = families.get(gno);
    const missing = missingOf.get(gno);
    // An optional preview (a page's title in its own font) is drawn in the face only when it has every character.
    if ('previewOptional' in element.dataset) {
      const complete = ![...previewText(element)].some((ch) => missing?.has(ch));
      if (family && complete) element.style.fontFamily = `'${family}', var(--font-sans)`;
      continue;
    }
    if (family) element.style.fontFamily = `'${family}', var(--font-sans)`;
    markMissing(element, missing);
  }
  await Promise.all(faces.map((face) => face.load().catch(() => undefined)));
  // Tests and benchmarks read when every preview was drawn in its own font, and with how many bytes.
  performance.mark('font-previews-drawn', { detail: { run, fonts: families.size, fontBytes } });
  document.documentElement.dataset['previewsLoaded'] = String(run);
}

/**
 * Marks the characters a font lacks inside a preview, so nobody takes the fallback font's glyph for
 * the font's own: each is wrapped in a dashed box, and the preview says how many are missing
 * (缺 N 字): after the text, or, where the text is clipped to one line (a library row), in the
 * badge slot of the element around it (`[data-missing-scope]` holding `[data-missing-badge]`), so
 * the count is never cut off. Glyph grids (`data-preview-text`) show only the font's own characters
 * and are left alone.
 */
function markMissing(element: HTMLElement, missing: ReadonlySet<string> | undefined): void {
  if ('previewText' in element.dataset) return;
  const text = element.textContent ?? '';
  const lacking = [...new Set([...text].filter((ch) => missing?.has(ch)))];
  const badge = element.closest('[data-missing-scope]')?.querySelector<HTMLElement>('[data-missing-badge]');
  if (lacking.length === 0) {
    if ('missing' in element.dataset) element.removeAttribute('title');
    delete element.dataset['missing'];
    if (badge) badge.hidden = true;
    // A text that was marked before keeps no boxes once the face has every character.
    if (element.querySelector('.glyph-missing')) element.textContent = text;
    return;
  }
  const parts: Node[] = [];
  for (const ch of text) {
    if (!missing?.has(ch)) {
      const last = parts.at(-1);
      if (last instanceof Text) last.data += ch;
      else parts.push(document.createTextNode(ch));
      continue;
    }
    const mark = document.createElement('span');
    mark.className = 'glyph-missing';
    mark.title = `这款字体没有「${ch}」`;
    mark.textContent = ch;
    parts.push(mark);
  }
  element.replaceChildren(...parts);
  element.dataset['missing'] = `缺 ${lacking.length} 字`;
  element.title = `这款字体缺少：${lacking.join('')}`;
  if (badge) {
    badge.hidden = false;
    badge.textContent = `缺 ${lacking.length} 字：${lacking.slice(0, 8).join('')}${lacking.length > 8 ? '…' : ''}`;
    badge.title = `这款字体缺少：${lacking.join('')}`;
  }
}

/** Calls `apply` at most once per `ms` after the last call: typing does not flood the subset service. */
export function debounce<A extends unknown[]>(apply: (...args: A) => void, ms = 300): (...args: A) => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return (...args: A) => {
    clearTimeout(timer);
    timer = setTimeout(() => apply(...args), ms);
  };
}

/**
 * A debounce whose first call runs at once: a tool's first result (made from its sample) should not
 * wait for typing to settle, only the ones after it.
 */
export function debounceAfterFirst<A extends unknown[]>(apply: (...args: A) => void, ms = 300): (...args: A) => void {
  const later = debounce(apply, ms);
  let first = true;
  return (...args: A) => {
    if (!first) return later(...args);
    first = false;
    apply(...args);
  };
}

/**
 * Loads the previews under `root` once the browser is idle: specimens show in the system font at
 * once and switch to their own face when it arrives, without competing with the page's first paint.
 */
export function loadPreviewsWhenIdle(root: ParentNode = document): void {
  const start = () => void loadPreviews(root);
  if ('requestIdleCallback' in window) requestIdleCallback(start);
  else setTimeout(start, 200);
}
