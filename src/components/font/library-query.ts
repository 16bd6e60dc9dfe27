// The font library's state in the URL, so that any list (filters, sort, page, layout, the type
// tester's settings) can be shared.
import { readTester, type TesterState, writeTester } from '../../lib/type-tester.ts';

/** The filter parameters, in the order the filter rows show them; each is also a dictionary key. */
export const FILTER_KEYS = ['category', 'script', 'weights', 'commercialFree'] as const;
/** Row titles of the filters. */
export const FILTER_TITLES: Record<(typeof FILTER_KEYS)[number], string> = {
  category: '分类',
  script: '字形',
  weights: '字重',
  commercialFree: '授权',
};
/** Sort orders with their labels. */
export const SORTS = [
  { value: 'downloads', label: '最多下载' },
  { value: 'newest', label: '最新收录' },
  { value: 'name', label: '按名称' },
] as const;
/** Families per page: 24 previews stay within the page's font budget (400 KB). */
export const PAGE_SIZE = 24;
/** The library's sample size when the address names none. */
export const LIBRARY_PX = 36;
/** Most families `only` may name (the 「包含这些字」 filter's answer). */
const MAX_ONLY = 500;

/** Everything the library reads from its URL. */
export interface LibraryState {
  keyword: string;
  filters: Partial<Record<(typeof FILTER_KEYS)[number], string>>;
  sort: (typeof SORTS)[number]['value'];
  current: number;
  layout: 'Table' | 'Grid';
  tester: TesterState;
  /**
   * Only these families, in this order: the families the 「包含这些字」 filter found, which the
   * page's script adds when it asks for a page of the list (the pasted text is too long for an address).
   */
  only: string[] | undefined;
  /** List `only` in its own order (fewest missing characters first) rather than by `sort`. */
  inOnlyOrder: boolean;
}

/** Reads the library state from the page's URL, ignoring values it does not know. */
export function readLibraryState(params: URLSearchParams): LibraryState {
  const filters: LibraryState['filters'] = {};
  for (const key of FILTER_KEYS) {
    const value = params.get(key)?.trim();
    if (value && value.length <= 32) filters[key] = value;
  }
  const sort = SORTS.find((option) => option.value === params.get('sort'))?.value ?? 'downloads';
  const current = Math.max(1, Math.min(100_000, Math.floor(Number(params.get('current')) || 1)));
  const only = params.has('only')
    ? (params.get('only') ?? '')
        .split(',')
        .filter((gno) => /^[a-z0-9][a-z0-9-]{0,63}$/.test(gno))
        .slice(0, MAX_ONLY)
    : undefined;
  return {
    keyword: (params.get('keyword') ?? '').trim().slice(0, 50),
    filters,
    sort,
    current,
    layout: params.get('layout') === 'Grid' ? 'Grid' : 'Table',
    tester: readTester(params, LIBRARY_PX),
    only,
    inOnlyOrder: params.get('onlyorder') === '1',
  };
}

/** The address of the library with some of its state changed; a filter change goes back to page 1. */
export function libraryHref(
  state: LibraryState,
  change: Partial<LibraryState> & { filter?: [string, string | undefined] },
): string {
  const next = { ...state, ...change, filters: { ...state.filters } };
  if (change.filter) {
    const [key, value] = change.filter;
    if (value) next.filters[key as keyof LibraryState['filters']] = value;
    else delete next.filters[key as keyof LibraryState['filters']];
    next.current = 1;
  }
  const params = new URLSearchParams();
  if (next.keyword) params.set('keyword', next.keyword);
  for (const key of FILTER_KEYS) if (next.filters[key]) params.set(key, next.filters[key] ?? '');
  if (next.sort !== 'downloads') params.set('sort', next.sort);
  if (next.layout !== 'Table') params.set('layout', next.layout);
  writeTester(params, next.tester, LIBRARY_PX);
  if (next.current > 1) params.set('current', String(next.current));
  const query = params.toString();
  return query ? `/font?${query}` : '/font';
}
