// The few scripts the pages carry inline, because they must run while the page is parsed, before any
// file arrives. They live here as text so that the pages write them and the Content-Security-Policy
// hashes them from the same strings (src/server/http/csp.ts): no inline script runs unless it is one
// of these, byte for byte.

/**
 * Keeps clicks on buttons whose script has not arrived yet, and submits of island forms that have
 * not hydrated (which would otherwise reload the page and lose what was typed); early-clicks.ts
 * replays both. A click on a plain button of an island whose script has not arrived (its `ssr` mark
 * still on) is kept too and clicked again as soon as the mark goes: Astro drops it once React's root
 * is made, and React then hydrates the button to answer the click.
 */
export const EARLY_INPUT_SCRIPT = `window.__earlyClicks = [];
window.__earlySubmits = [];
window.__earlyInputs = {};
window.__islandClicks = [];
document.addEventListener(
  'click',
  function (event) {
    var button = event.target instanceof Element && event.target.closest('button[type="button"]');
    if (!button || button.hasAttribute('data-early-click') || !button.closest('astro-island[ssr]')) return;
    if (window.__islandClicks.indexOf(button) < 0) window.__islandClicks.push(button);
    button.setAttribute('aria-busy', 'true');
  },
  true,
);
new MutationObserver(function (changes) {
  changes.forEach(function (change) {
    var island = change.target;
    if (island.hasAttribute('ssr')) return;
    var kept = window.__islandClicks.filter(function (button) { return island.contains(button); });
    if (kept.length === 0) return;
    window.__islandClicks = window.__islandClicks.filter(function (button) { return !island.contains(button); });
    kept.forEach(function (button) {
      button.removeAttribute('aria-busy');
      button.click();
    });
  });
}).observe(document, { subtree: true, attributes: true, attributeFilter: ['ssr'] });
document.addEventListener(
  'input',
  function (event) {
    var field = event.target;
    if (!(field instanceof Element) || field.hasAttribute('data-live') || !field.closest('astro-island')) return;
    var key = field.getAttribute('data-early-input');
    if (key) window.__earlyInputs[key] = field.value;
  },
  true,
);
document.addEventListener(
  'submit',
  function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.closest('astro-island[ssr]')) return;
    event.preventDefault();
    if (window.__earlySubmits.indexOf(form) < 0) window.__earlySubmits.push(form);
  },
  true,
);
document.addEventListener(
  'click',
  function (event) {
    var button = event.target instanceof Element && event.target.closest('[data-early-click]:not([data-live])');
    if (!button) return;
    window.__earlyClicks.push(button);
    button.setAttribute('aria-busy', 'true');
  },
  true,
);`;

/** Runs before the first paint so the page never flashes the wrong theme. */
export const THEME_SCRIPT = `(function () {
  var root = document.documentElement;
  var dark = false;
  try {
    var stored = localStorage.getItem('theme');
    dark = stored ? stored === 'dark' : window.matchMedia('(prefers-color-scheme: dark)').matches;
  } catch (e) {}
  if (dark) root.setAttribute('theme', 'dark');
  root.style.colorScheme = dark ? 'dark' : 'light';
})();`;

/**
 * Wide screens show panels marked `data-open-wide` open (the library's filters, the type tester's
 * settings); phones keep them folded under one line, so the first font is on the first screen.
 * Placed after the panels, it runs while the page is parsed, so nothing jumps.
 */
export const OPEN_WIDE_SCRIPT = `(function () {
  var wide = window.matchMedia('(min-width: 900px)').matches;
  document.querySelectorAll('details[data-open-wide]').forEach(function (panel) {
    panel.open = wide;
  });
})();`;

/** Every inline script of the site. */
export const INLINE_SCRIPTS = [EARLY_INPUT_SCRIPT, THEME_SCRIPT, OPEN_WIDE_SCRIPT] as const;
