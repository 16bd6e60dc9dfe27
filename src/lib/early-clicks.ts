// Buttons that work through a page script (favourite, compare, download) carry
// `data-early-click`. Until that script has run, the inline listener in Head.astro keeps their
// clicks in `window.__earlyClicks` instead of losing them; the script then marks its buttons live
// and replays what was kept, so a reader's first click counts however slowly the script arrives.

declare global {
  interface Window {
    __earlyClicks?: Element[];
    __earlySubmits?: HTMLFormElement[];
    __earlyInputs?: Record<string, string>;
  }
}

/**
 * For an island's form that has just hydrated: whether it was submitted before (the inline
 * listener in Head.astro held that submit back). The form's fields still hold what was typed, so
 * the island takes them over and submits again.
 */
export function takeEarlySubmit(form: HTMLFormElement | null): boolean {
  const queue = window.__earlySubmits ?? [];
  if (!form || !queue.includes(form)) return false;
  window.__earlySubmits = queue.filter((element) => element !== form);
  return true;
}

/**
 * For an island's field marked `data-early-input="<key>"`: what was typed into it before the island
 * hydrated (the inline listener in Head.astro kept it), or undefined. Hydrating a controlled field
 * puts the island's state back into it, so the island starts from this instead. Call it from an
 * effect: effects run once hydration has committed. Astro drops the island's `ssr` mark as soon as
 * React's hydration is scheduled, which is earlier (React hydrates in a transition), so the listener
 * keeps typing until the field is marked live here, not until the mark goes.
 */
export function takeEarlyInput(key: string): string | undefined {
  if (typeof window === 'undefined') return undefined;
  for (const field of document.querySelectorAll(`[data-early-input="${CSS.escape(key)}"]`)) {
    field.setAttribute('data-live', '');
  }
  const inputs = window.__earlyInputs ?? {};
  const value = inputs[key];
  delete inputs[key];
  return value;
}

/** Marks the page's buttons that match `selector` as handled and replays clicks kept for them. */
export function goLive(selector: string): void {
  const buttons = [...document.querySelectorAll<HTMLElement>(selector)];
  for (const button of buttons) {
    button.setAttribute('data-live', '');
    button.removeAttribute('aria-busy');
  }
  const queue = window.__earlyClicks ?? [];
  const waiting = queue.filter((element) => element.matches(selector));
  window.__earlyClicks = queue.filter((element) => !element.matches(selector));
  for (const element of waiting) (element as HTMLElement).click();
}
