// The 「包含这些字」 filter of the library: the visitor pastes a text (up to 5,000 different
// characters), the server answers which families have every character and what the others lack
// (POST /web/api/font/coverage), and the list narrows to the families that have them all, or lists
// every family, fewest missing characters first, each with what it lacks. A short text goes into the
// address (`has`), so such a list can be shared; a long one is kept for the visit only.
import { type FontCoverageAnswer, fontCoverage } from '../../api/fonts.ts';
import { RequestError } from '../../api/http.ts';
import { COVERAGE_MAX_CHARACTERS } from '../../contract/fonts.ts';
import { readStoredJson, writeStorage } from '../../lib/storage.ts';
import type { ExtraParams } from './library-nav.ts';

/** Most distinct characters written into the address; longer texts stay in this visit's storage. */
const MAX_IN_ADDRESS = 200;
const STORAGE_KEY = 'fontContains';

type Mode = 'all' | 'lacks';

interface Active {
  /** The distinct characters checked, whitespace left out. */
  characters: string;
  mode: Mode;
  answer: FontCoverageAnswer;
}

/** The distinct characters of a text, whitespace left out, in the order they first appear. */
export function distinctCharacters(text: string): string {
  return [...new Set([...text].filter((ch) => !/\s/u.test(ch)))].join('');
}

/** Installs the filter; `apply` reloads the list in place (pushing a history entry or not). */
export function installContainsFilter(apply: (push: boolean) => Promise<void>): {
  restore: (url: URL) => Promise<void>;
  extra: () => ExtraParams | undefined;
  paint: () => void;
} {
  const form = document.querySelector<HTMLFormElement>('[data-contains-form]');
  const input = document.querySelector<HTMLTextAreaElement>('[data-contains-text]');
  const status = document.querySelector<HTMLElement>('[data-contains-status]');
  const clear = document.querySelector<HTMLButtonElement>('[data-contains-clear]');
  let active: Active | undefined;
  let asking: AbortController | undefined;

  const say = (message: string, error = false) => {
    if (!status) return;
    status.textContent = message;
    if (error) status.dataset['state'] = 'error';
    else delete status.dataset['state'];
  };
  const modeChosen = (): Mode =>
    document.querySelector<HTMLInputElement>('[data-contains-mode]:checked')?.value === 'lacks' ? 'lacks' : 'all';

  /** Asks which families have the text's characters; answers false (and says why) when it cannot. */
  async function ask(text: string, mode: Mode): Promise<boolean> {
    const characters = distinctCharacters(text);
    if (characters.length === 0) {
      say('请先输入或粘贴要包含的文字', true);
      return false;
    }
    const count = [...characters].length;
    if (count > COVERAGE_MAX_CHARACTERS) {
      say(`最多 ${COVERAGE_MAX_CHARACTERS} 个不同的字，这段文字有 ${count} 个，请删减后再筛选`, true);
      return false;
    }
    asking?.abort();
    const controller = new AbortController();
    asking = controller;
    say(`正在查找包含这 ${count} 个字的字体…`);
    try {
      const answer = await fontCoverage({ text: characters }, controller.signal);
      if (controller.signal.aborted) return false;
      active = { characters, mode, answer };
      writeStorage(STORAGE_KEY, JSON.stringify({ characters, mode }), 'sessionStorage');
      return true;
    } catch (error) {
      if (!controller.signal.aborted) {
        say(
          error instanceof RequestError && error.status === 400 ? error.message : '暂时无法按文字筛选，请稍后再试',
          true,
        );
      }
      return false;
    }
  }

  async function search(text: string, mode: Mode, push: boolean): Promise<void> {
    if (await ask(text, mode)) await apply(push);
  }

  /** The filter the address names, or the one kept for this visit when its text was too long for the address. */
  function fromAddress(url: URL): { text: string; mode: Mode } | undefined {
    if (!url.searchParams.has('hasmode')) return undefined;
    const kept = readStoredJson<{ characters?: string }>(STORAGE_KEY, {}, 'sessionStorage');
    const text = url.searchParams.get('has') ?? kept.characters ?? '';
    return text ? { text, mode: url.searchParams.get('hasmode') === 'lacks' ? 'lacks' : 'all' } : undefined;
  }

  function show(named: { text: string; mode: Mode } | undefined): void {
    if (input) input.value = named?.text ?? '';
    const radio = document.querySelector<HTMLInputElement>(`[data-contains-mode][value="${named?.mode ?? 'all'}"]`);
    if (radio) radio.checked = true;
  }

  form?.addEventListener('submit', (event) => {
    event.preventDefault();
    void search(input?.value ?? '', modeChosen(), true);
  });
  for (const radio of document.querySelectorAll<HTMLInputElement>('[data-contains-mode]')) {
    radio.addEventListener('change', () => {
      if (!active) return;
      active = { ...active, mode: modeChosen() };
      writeStorage(STORAGE_KEY, JSON.stringify({ characters: active.characters, mode: active.mode }), 'sessionStorage');
      void apply(true);
    });
  }
  clear?.addEventListener('click', () => {
    active = undefined;
    if (input) input.value = '';
    writeStorage(STORAGE_KEY, null, 'sessionStorage');
    void apply(true);
  });

  // A filter named by the address (or kept for this visit, when the text was too long for it) is applied on arrival.
  const named = fromAddress(new URL(location.href));
  if (named) {
    show(named);
    void search(named.text, named.mode, false);
  }

  return {
    /** Back or forward: the filter becomes what the address names (asked again if its text changed). */
    async restore(url) {
      const wanted = fromAddress(url);
      show(wanted);
      if (!wanted) {
        active = undefined;
        return;
      }
      if (active && active.characters === distinctCharacters(wanted.text)) active = { ...active, mode: wanted.mode };
      else if (!(await ask(wanted.text, wanted.mode))) active = undefined;
    },
    extra() {
      if (!active) return undefined;
      const { characters, mode, answer } = active;
      const families = mode === 'all' ? answer.families.filter((family) => family.lacks === 0) : answer.families;
      const fetchParams: Record<string, string> = { only: families.map((family) => family.fontGNo).join(',') };
      if (mode === 'lacks') fetchParams['onlyorder'] = '1';
      const address: Record<string, string> = { hasmode: mode };
      if ([...characters].length <= MAX_IN_ADDRESS) address['has'] = characters;
      return { fetch: fetchParams, address };
    },
    paint() {
      if (clear) clear.hidden = !active;
      const note = document.querySelector<HTMLElement>('[data-contains-note]');
      const lacking = new Map((active?.answer.families ?? []).map((family) => [family.fontGNo, family]));
      for (const badge of document.querySelectorAll<HTMLElement>('[data-contains-badge]')) {
        const family = lacking.get(badge.closest<HTMLElement>('[data-font-row]')?.dataset['fontRow'] ?? '');
        badge.hidden = !active || !family;
        if (!active || !family) continue;
        badge.dataset['lacks'] = String(family.lacks);
        badge.textContent =
          family.lacks === 0
            ? `全部 ${active.answer.checked} 字都有`
            : `缺 ${family.lacks} 字：${family.missing}${family.lacks > [...family.missing].length ? '…' : ''}`;
      }
      if (!active) {
        if (note) note.hidden = true;
        say('');
        return;
      }
      const complete = active.answer.families.filter((family) => family.lacks === 0).length;
      const sentence = `${complete} 款字体包含全部 ${active.answer.checked} 个字`;
      if (note) {
        note.hidden = false;
        note.textContent = active.mode === 'all' ? `（按文字筛选：${sentence}）` : `（按缺字数排列；${sentence}）`;
      }
      say(
        complete === 0 && active.mode === 'all'
          ? `没有字体包含全部 ${active.answer.checked} 个字；可改为「列出全部，按缺字数排」看看各缺哪些`
          : `${sentence}。`,
      );
    },
  };
}
