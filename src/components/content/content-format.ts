// Small formatting helpers of the content pages (dates in China time, paging links).

const DATE = new Intl.DateTimeFormat('zh-CN', {
  timeZone: 'Asia/Shanghai',
  year: 'numeric',
  month: 'long',
  day: 'numeric',
});

/** A date as readers expect it, e.g. 2024年3月1日; empty for no date. */
export function formatDate(iso: string | null | undefined): string {
  return iso ? DATE.format(new Date(iso)) : '';
}

/** The machine-readable date of a <time> element (YYYY-MM-DD in China time). */
export function isoDay(iso: string | null | undefined): string {
  if (!iso) return '';
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date(iso));
}

/** The page number in `?current=`, 1 for anything that is not a positive integer. */
export function currentPage(url: URL): number {
  const value = Number(url.searchParams.get('current'));
  return Number.isInteger(value) && value >= 1 && value <= 10_000 ? value : 1;
}

/** A positive integer query parameter such as `?tag=`, or undefined. */
export function idParam(url: URL, name: string): number | undefined {
  const value = Number(url.searchParams.get(name));
  return Number.isInteger(value) && value >= 1 && value <= 2_147_483_647 ? value : undefined;
}

/** The address of another page of a list, keeping its other parameters. */
export function pageHref(url: URL, page: number): string {
  const next = new URLSearchParams(url.searchParams);
  if (page <= 1) next.delete('current');
  else next.set('current', String(page));
  const query = next.toString();
  return query ? `${url.pathname}?${query}` : url.pathname;
}
