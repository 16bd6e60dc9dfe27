import { atom } from 'nanostores';
import { readTester, type TesterState, writeTester } from '../lib/type-tester.ts';

// The type tester's state for the page open now. The address is its source of truth: the store is
// read from it when the page starts and when the visitor goes back or forward, and every change is
// written back into it (replaceState, so typing does not fill the history), so the address always
// shares what the visitor sees.

/** The tester's settings; read from the address by startTypeTester. */
export const $tester = atom<TesterState>(readTester(new URLSearchParams(), 36));

let defaultPx = 36;
let started = false;

/** Reads the state from the page's address and keeps the address in step from now on. */
export function startTypeTester(pageDefaultPx: number): void {
  defaultPx = pageDefaultPx;
  $tester.set(readTester(new URLSearchParams(location.search), defaultPx));
  if (started) return;
  started = true;
  $tester.listen((state) => {
    const url = new URL(location.href);
    writeTester(url.searchParams, state, defaultPx);
    const next = url.pathname + url.search + url.hash;
    if (next !== location.pathname + location.search + location.hash) history.replaceState(history.state, '', next);
  });
  // Back and forward restore the state their address holds.
  addEventListener('popstate', () => $tester.set(readTester(new URLSearchParams(location.search), defaultPx)));
}

/** Changes some settings. */
export function setTester(change: Partial<TesterState>): void {
  $tester.set({ ...$tester.get(), ...change });
}

/** Chooses the weight of one family's row; undefined goes back to the family's regular face. */
export function setRowWeight(familyGno: string, weight: number | undefined): void {
  const weights = { ...$tester.get().weights };
  if (weight === undefined) delete weights[familyGno];
  else weights[familyGno] = weight;
  setTester({ weights });
}

/** Puts every setting but the text back to the page's defaults. */
export function resetTester(): void {
  $tester.set({ ...readTester(new URLSearchParams(), defaultPx), text: $tester.get().text });
}

/** The tester's part of the address, e.g. for links that should carry the same settings. */
export function testerSearch(params: URLSearchParams): URLSearchParams {
  return writeTester(params, $tester.get(), defaultPx);
}
