// Binds a page's type-tester controls to the tester store and draws its state: the size, line
// height, letter spacing, alignment and colours as CSS variables on the tester's root, the
// direction as an attribute (竖排 sets `writing-mode: vertical-rl`, where the browser applies the
// faces' `vert`/`vrt2` forms, which the preview subsets keep), the visitor's text or each face's own
// default sample, and the weight chosen per row. The pages render the same state on the server.
import { readTester, TESTER_PROPERTIES, type TesterState, testerStyle } from '../../lib/type-tester.ts';
import { rememberSample } from '../../stores/font-list.ts';
import { $tester, resetTester, setRowWeight, setTester, startTypeTester } from '../../stores/type-tester.ts';
import { debounce } from './font-previews.ts';

/** What a page does beyond drawing the state. */
export interface TesterBinding {
  /** The page's size when the address names none. */
  defaultPx: number;
  /** Called (debounced) when the text or a row's face changed, to load the previews again. */
  redraw: () => void;
}

/** The settings that differ from the page's defaults, text and row weights aside. */
function changedSettings(state: TesterState, defaultPx: number): Partial<TesterState> {
  const defaults = readTester(new URLSearchParams(), defaultPx);
  const changed: Partial<TesterState> = {};
  for (const key of ['px', 'lh', 'ls', 'align', 'dir', 'fg', 'bg'] as const) {
    if (state[key] !== defaults[key]) Object.assign(changed, { [key]: state[key] });
  }
  return changed;
}

/** Applies the state's CSS variables and direction to the tester's root element. */
function paintRoot(root: HTMLElement, state: TesterState): void {
  for (const property of TESTER_PROPERTIES) root.style.removeProperty(property);
  for (const rule of testerStyle(state).split('; ')) {
    const [name = '', value = ''] = rule.split(': ');
    root.style.setProperty(name, value);
  }
  root.dataset['testerDir'] = state.dir;
}

/** Sets every control to the state (after back/forward, a reset, or a change made elsewhere). */
function paintControls(state: TesterState): void {
  for (const control of document.querySelectorAll<HTMLInputElement>('[data-tester-control]')) {
    const key = control.dataset['testerControl'] as keyof TesterState;
    if (control.type === 'radio') {
      control.checked = String(state[key]) === control.value;
      continue;
    }
    if (document.activeElement === control && key === 'text') continue; // never rewrite what is being typed
    if (key === 'lh') control.value = String(state.lh ?? control.dataset['default'] ?? '');
    else if (key === 'fg' || key === 'bg') {
      if (state[key]) control.value = state[key];
    } else if (key === 'text' || key === 'px' || key === 'ls') control.value = String(state[key]);
  }
  for (const output of document.querySelectorAll<HTMLOutputElement>('[data-tester-output]')) {
    const key = output.dataset['testerOutput'];
    const lh =
      state.lh ?? Number(document.querySelector<HTMLInputElement>('[data-tester-control="lh"]')?.dataset['default']);
    if (key === 'px') output.textContent = String(state.px);
    if (key === 'lh') output.textContent = lh.toFixed(2);
    if (key === 'ls') output.textContent = state.ls.toFixed(2);
  }
  for (const summary of document.querySelectorAll('[data-tester-summary]')) {
    summary.textContent = state.dir === 'v' ? '竖排' : '横排';
  }
}

/** Writes the visitor's text, or each sample's own default, into every sample of the root. */
function paintSamples(root: ParentNode, text: string): void {
  for (const element of root.querySelectorAll<HTMLElement>('[data-sample]')) {
    const next = text || element.dataset['defaultSample'] || '';
    if (element.textContent !== next || element.querySelector('.glyph-missing')) element.textContent = next;
  }
}

/**
 * Points each row at the face of its chosen weight (each `<option>` carries its face's gno); a row
 * without a choice shows its family's regular face, which the family's gno stands for.
 */
function paintWeights(root: ParentNode, weights: TesterState['weights']): void {
  for (const select of root.querySelectorAll<HTMLSelectElement>('select[data-row-weight]')) {
    const family = select.dataset['rowWeight'] ?? '';
    const wanted = weights[family];
    const option =
      [...select.options].find((candidate) => Number(candidate.value) === wanted) ??
      [...select.options].find((candidate) => candidate.hasAttribute('data-regular')) ??
      select.options[0];
    if (!option) continue;
    select.value = option.value;
    const gno = option.hasAttribute('data-regular') ? family : option.dataset['gno'];
    for (const sample of root.querySelectorAll<HTMLElement>(`[data-row-sample="${family}"]`)) {
      if (gno && sample.dataset['previewGno'] !== gno) sample.dataset['previewGno'] = gno;
    }
  }
}

/**
 * Starts the tester of the page: reads the state from the address, binds the controls inside
 * `document` (text, size and the 排版 panel) and draws every change on `root`.
 */
export function bindTypeTester(root: HTMLElement, binding: TesterBinding): void {
  startTypeTester(binding.defaultPx);
  const redraw = debounce(binding.redraw, 300);
  let last = $tester.get();
  paintControls(last);

  document.addEventListener('input', (event) => {
    const control = event.target;
    if (!(control instanceof HTMLInputElement) || !control.dataset['testerControl']) return;
    const key = control.dataset['testerControl'];
    const value = control.value;
    if (key === 'text') setTester({ text: value.trim() });
    else if (key === 'px') setTester({ px: Number(value) });
    else if (key === 'lh') setTester({ lh: Number(value) });
    else if (key === 'ls') setTester({ ls: Number(value) });
    else if (key === 'fg' || key === 'bg') setTester({ [key]: value });
  });
  document.addEventListener('change', (event) => {
    const control = event.target;
    if (control instanceof HTMLInputElement && control.type === 'radio' && control.dataset['testerControl']) {
      if (control.dataset['testerControl'] === 'dir') setTester({ dir: control.value === 'v' ? 'v' : 'h' });
      if (control.dataset['testerControl'] === 'align') setTester({ align: control.value as TesterState['align'] });
    }
    if (control instanceof HTMLSelectElement && control.dataset['rowWeight']) {
      const chosen = control.selectedOptions[0];
      setRowWeight(
        control.dataset['rowWeight'],
        chosen?.hasAttribute('data-regular') ? undefined : Number(control.value),
      );
    }
  });
  document.addEventListener('click', (event) => {
    if (event.target instanceof Element && event.target.closest('[data-tester-reset]')) resetTester();
  });

  $tester.subscribe((state) => {
    paintRoot(root, state);
    if (state !== last) paintControls(state);
    const textChanged = state.text !== last.text;
    const facesChanged = JSON.stringify(state.weights) !== JSON.stringify(last.weights);
    // Samples and weights may sit outside the root (a font page's list of weights).
    if (textChanged) paintSamples(document, state.text);
    if (facesChanged || textChanged) paintWeights(document, state.weights);
    if (textChanged || facesChanged) redraw();
    last = state;
    // What the visitor changed follows them to a font's page for the rest of the visit.
    rememberSample({ text: state.text, tester: changedSettings(state, binding.defaultPx) });
  });
}

/** Draws the current state on content that replaced part of the page (a new page of the library). */
export function repaintTester(root: HTMLElement): void {
  const state = $tester.get();
  paintRoot(root, state);
  paintSamples(root, state.text);
  paintWeights(root, state.weights);
}
