// Applies the library's filters, sort, layout, search and pages in place: the page the server would
// render is fetched and its list, counts and filter links replace the current ones, so the filter
// sheet stays open, the scroll place and the focus stay where they were, and the type tester keeps
// its settings. The links stay plain links (without scripts they load the page), and the address
// changes as a page load would change it, so back and forward work.
import { plainLinkClick } from '../../lib/plain-click.ts';
import { TESTER_KEYS } from '../../lib/type-tester.ts';
import { testerSearch } from '../../stores/type-tester.ts';

/** Parameters a page's script adds: to the fetched page only, and to the address. */
export interface ExtraParams {
  fetch: Record<string, string>;
  address: Record<string, string>;
}

/** How the library's navigation is extended by the page. */
export interface LibraryNavOptions {
  /** What the 「包含这些字」 filter adds, when it is on. */
  extra: () => ExtraParams | undefined;
  /** Runs after new content is in place (previews, buttons, badges). */
  after: () => void;
  /** Back or forward: brings the filter's own state to what the address says, before the list follows. */
  restore: (url: URL) => Promise<void>;
}

/** The parts of the page a navigation replaces, by selector: the whole element, or only what it holds. */
const REPLACED = ['[data-library-results]'];
const REFILLED = ['[data-library-filters]', '[data-library-summary]', '[data-library-hidden]'];

/** The address of the list, without the tester's settings and the parameters only the fetch carries. */
function listKey(url: URL): string {
  const params = new URLSearchParams(url.search);
  for (const key of [...TESTER_KEYS, 'only', 'onlyorder']) params.delete(key);
  params.sort();
  return params.toString();
}

/** Installs in-place navigation on the library; answers a function that reloads the list as it is. */
export function installLibraryNav(root: HTMLElement, options: LibraryNavOptions): (push: boolean) => Promise<void> {
  let running: AbortController | undefined;
  let shown = listKey(new URL(location.href));

  async function navigate(target: URL, push: boolean, scrollToList = false): Promise<void> {
    running?.abort();
    const controller = new AbortController();
    running = controller;
    const extra = options.extra();
    const address = new URL(target);
    testerSearch(address.searchParams);
    for (const key of ['has', 'hasmode']) address.searchParams.delete(key);
    for (const [key, value] of Object.entries(extra?.address ?? {})) address.searchParams.set(key, value);
    const fetched = new URL(address);
    for (const [key, value] of Object.entries(extra?.fetch ?? {})) fetched.searchParams.set(key, value);

    const results = root.querySelector<HTMLElement>('[data-library-results]');
    results?.setAttribute('aria-busy', 'true');
    let html: string;
    try {
      const response = await fetch(fetched, { headers: { accept: 'text/html' }, signal: controller.signal });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      html = await response.text();
    } catch (error) {
      if (controller.signal.aborted) return;
      // The list could not be fetched in place: load it the ordinary way.
      location.assign(address);
      throw error;
    }
    if (controller.signal.aborted) return;
    const next = new DOMParser().parseFromString(html, 'text/html');
    const focused = document.activeElement instanceof HTMLAnchorElement ? focusKey(document.activeElement) : undefined;
    for (const selector of REPLACED) {
      const incoming = next.querySelector(selector);
      const current = root.querySelector(selector);
      if (incoming && current) current.replaceWith(document.importNode(incoming, true));
    }
    for (const selector of REFILLED) {
      const incoming = next.querySelector(selector);
      const current = root.querySelector(selector);
      if (incoming && current)
        current.replaceChildren(...[...incoming.childNodes].map((n) => document.importNode(n, true)));
    }
    syncForm(next);
    if (push) history.pushState(history.state, '', address);
    else history.replaceState(history.state, '', address);
    shown = listKey(address);
    options.after();
    if (focused) restoreFocus(focused);
    if (scrollToList) {
      const list = root.querySelector<HTMLElement>('[data-library-results]');
      if (list && list.getBoundingClientRect().top < 0) list.scrollIntoView({ block: 'start' });
    }
  }

  root.addEventListener('click', (event) => {
    const url = plainLinkClick(event);
    if (url?.pathname !== '/font') return;
    const link = (event.target as Element).closest('a[href]');
    event.preventDefault();
    void navigate(url, true, Boolean(link?.closest('.pager')));
  });

  const form = root.querySelector<HTMLFormElement>('[data-library-form]');
  const submit = () => {
    if (!form) return;
    const url = new URL('/font', location.origin);
    for (const [key, value] of new FormData(form)) {
      if (typeof value === 'string' && value.trim() && !(TESTER_KEYS as readonly string[]).includes(key)) {
        url.searchParams.set(key, value.trim());
      }
    }
    if (url.searchParams.get('sort') === 'downloads') url.searchParams.delete('sort');
    void navigate(url, true);
  };
  form?.addEventListener('submit', (event) => {
    event.preventDefault();
    submit();
  });
  form?.querySelector('[data-autosubmit]')?.addEventListener('change', submit);

  addEventListener('popstate', () => {
    const url = new URL(location.href);
    if (listKey(url) === shown) return;
    void options.restore(url).then(() => navigate(url, false));
  });

  return (push: boolean) => navigate(new URL(location.href), push);
}

/** A link's identity that survives its replacement: its group and text. */
function focusKey(link: HTMLAnchorElement): string {
  const group = link.closest('[role=group], nav')?.getAttribute('aria-label') ?? '';
  return `${group}|${link.textContent?.trim() ?? ''}`;
}

function restoreFocus(key: string): void {
  for (const link of document.querySelectorAll<HTMLAnchorElement>('[data-library] a[href]')) {
    if (focusKey(link) === key) {
      link.focus({ preventScroll: true });
      return;
    }
  }
}

/** Sets the search form's keyword and sort to what the new page shows. */
function syncForm(next: Document): void {
  for (const name of ['keyword', 'sort']) {
    const incoming = next.querySelector<HTMLInputElement | HTMLSelectElement>(`[data-library-form] [name="${name}"]`);
    const current = document.querySelector<HTMLInputElement | HTMLSelectElement>(
      `[data-library-form] [name="${name}"]`,
    );
    if (incoming && current && document.activeElement !== current) current.value = incoming.value;
  }
}
