// The type tester's settings as the address carries them, shared by the pages (which render the
// first state on the server, so nothing jumps) and the browser store (src/stores/type-tester.ts),
// which keeps the address in step as the visitor changes them. The address is the source of truth:
// a tested setting can be shared or bookmarked as it is.

/** How lines are aligned: CSS `text-align` values. */
export const ALIGNS = ['start', 'center', 'end', 'justify'] as const;
export type Align = (typeof ALIGNS)[number];

/** Horizontal (横排) or vertical, right to left (竖排). */
export type Direction = 'h' | 'v';

/** Bounds and steps of the numeric settings. */
export const TESTER_LIMITS = {
  px: { min: 12, max: 160, step: 2 },
  /** Line height as a multiple of the size. */
  lh: { min: 0.8, max: 3, step: 0.05 },
  /** Letter spacing in em. */
  ls: { min: -0.2, max: 1, step: 0.01 },
} as const;

/** Most characters of a visitor's sample text (the subset service caps distinct characters). */
export const TESTER_TEXT_MAX = 200;

/** Everything the tester reads from the address. */
export interface TesterState {
  /** The visitor's own text; '' shows each face's default sample. */
  text: string;
  px: number;
  /** null: the page's own line height. */
  lh: number | null;
  ls: number;
  align: Align;
  dir: Direction;
  /** '#rrggbb', or '' for the theme's ink and paper. */
  fg: string;
  bg: string;
  /** The weight chosen for a family's row, by family gno. */
  weights: Record<string, number>;
}

/** The address parameters the tester owns; everything else in the address belongs to the page. */
export const TESTER_KEYS = ['text', 'px', 'lh', 'ls', 'align', 'dir', 'fg', 'bg', 'w'] as const;

const HEX = /^[0-9a-f]{6}$/i;
const GNO = /^[a-z0-9][a-z0-9-]{0,63}$/;

function numberIn(value: string | null, limits: { min: number; max: number }): number | null {
  if (value === null || value.trim() === '') return null;
  const n = Number(value);
  return Number.isFinite(n) && n >= limits.min && n <= limits.max ? n : null;
}

function colourFrom(value: string | null): string {
  const hex = (value ?? '').replace(/^#/, '');
  return HEX.test(hex) ? `#${hex.toLowerCase()}` : '';
}

/** Reads `w=gno:700,gno2:300`: a weight per family row. */
function weightsFrom(value: string | null): Record<string, number> {
  const weights: Record<string, number> = {};
  for (const pair of (value ?? '').split(',').slice(0, 100)) {
    const [gno = '', weight = ''] = pair.split(':');
    const n = Number(weight);
    if (GNO.test(gno) && Number.isInteger(n) && n >= 1 && n <= 1000) weights[gno] = n;
  }
  return weights;
}

/** Reads the tester's state from an address, ignoring what it does not know; `px` falls back to the page's size. */
export function readTester(params: URLSearchParams, defaultPx: number): TesterState {
  const align = ALIGNS.find((value) => value === params.get('align')) ?? 'start';
  return {
    text: [...(params.get('text') ?? '').trim()].slice(0, TESTER_TEXT_MAX).join(''),
    px: Math.round(numberIn(params.get('px'), TESTER_LIMITS.px) ?? defaultPx),
    lh: numberIn(params.get('lh'), TESTER_LIMITS.lh),
    ls: numberIn(params.get('ls'), TESTER_LIMITS.ls) ?? 0,
    align,
    dir: params.get('dir') === 'v' ? 'v' : 'h',
    fg: colourFrom(params.get('fg')),
    bg: colourFrom(params.get('bg')),
    weights: weightsFrom(params.get('w')),
  };
}

/**
 * Writes the state into `params` (changing only the tester's keys), leaving out what equals the
 * default, so an untouched tester adds nothing to the address.
 */
export function writeTester(params: URLSearchParams, state: TesterState, defaultPx: number): URLSearchParams {
  for (const key of TESTER_KEYS) params.delete(key);
  if (state.text) params.set('text', state.text);
  if (state.px !== defaultPx) params.set('px', String(state.px));
  if (state.lh !== null) params.set('lh', String(Math.round(state.lh * 100) / 100));
  if (state.ls !== 0) params.set('ls', String(Math.round(state.ls * 100) / 100));
  if (state.align !== 'start') params.set('align', state.align);
  if (state.dir === 'v') params.set('dir', 'v');
  if (state.fg) params.set('fg', state.fg.slice(1));
  if (state.bg) params.set('bg', state.bg.slice(1));
  const weights = Object.entries(state.weights).map(([gno, weight]) => `${gno}:${weight}`);
  if (weights.length > 0) params.set('w', weights.join(','));
  return params;
}

/**
 * The CSS custom properties that draw the state, as a `style` attribute's text; the pages' styles
 * read them with the page's own values as fallbacks, so an unset one changes nothing.
 */
export function testerStyle(state: TesterState): string {
  const rules = [`--t-size: ${state.px}px`, `--t-ls: ${state.ls}em`, `--t-align: ${state.align}`];
  if (state.lh !== null) rules.push(`--t-lh: ${state.lh}`);
  if (state.fg) rules.push(`--t-fg: ${state.fg}`);
  if (state.bg) rules.push(`--t-bg: ${state.bg}`);
  return rules.join('; ');
}

/** The properties testerStyle may set, so the browser can clear the ones a new state leaves unset. */
export const TESTER_PROPERTIES = ['--t-size', '--t-lh', '--t-ls', '--t-align', '--t-fg', '--t-bg'] as const;

/** The `lang` a face's samples are tagged with, so the browser picks the regional forms (`locl`) and punctuation. */
export function sampleLang(script: string): string {
  if (script === '日文') return 'ja';
  if (script === '繁体') return 'zh-Hant';
  return 'zh-Hans';
}
