import { atom } from 'nanostores';
import type { FriendLink } from '../api/common.ts';
import type { HomeData } from '../api/home.ts';
import type { SiteContact } from '../contract/site.ts';
import { readStorage, writeStorage } from '../lib/storage.ts';
import { resumeSession } from './user.ts';

/** The site title when the page does not say otherwise. */
export const DEFAULT_APP_TITLE = '造字联盟官网';
/** Where the theme choice is kept; the inline script in <head> reads the same key. */
export const THEME_STORAGE_KEY = 'theme';

/** A file offered by the download modal. */
export interface DownloadFile {
  name: string;
  url: string;
  size?: number;
  [key: string]: unknown;
}

/**
 * The download modal. SPEC §3 gives `visible` the default true: the modal shows itself whenever it
 * has files, and a visitor who closes it sets visible to false until files are offered again.
 */
export interface DownloadModalState {
  visible: boolean;
  files: DownloadFile[];
}

/** The site title (from the page's data-site-title, set from SITE_TITLE on the server). */
export const $appTitle = atom(DEFAULT_APP_TITLE);
/** The footer's friendly links, highest `sort` first. */
export const $friendLinks = atom<FriendLink[]>([]);
/** The site's record numbers and contact channels; empty until loaded, or when none are set. */
export const $siteContact = atom<SiteContact>({});
/** The download modal. */
export const $downloadModal = atom<DownloadModalState>({ visible: true, files: [] });
/** The home page's data, cached until a reload is asked for. */
export const $homeData = atom<HomeData | null>(null);
/** Whether the dark theme is on. */
export const $dark = atom(false);

/** Sorts friendly links by `sort`, highest first (SPEC §3). */
export function sortFriendLinks(links: readonly FriendLink[]): FriendLink[] {
  return [...links].sort((a, b) => Number(b.sort) - Number(a.sort));
}

/** Loads the friendly links; a failure leaves the list as it was. */
export async function loadFriendLinks(): Promise<void> {
  const { getFriendLinks } = await import('../api/common.ts');
  try {
    $friendLinks.set(sortFriendLinks((await getFriendLinks()) ?? []));
  } catch {
    // The footer simply shows no links; nothing the visitor must act on.
  }
}

/** Loads the record numbers and contact channels; a failure leaves them unshown. */
export async function loadSiteContact(): Promise<void> {
  const { getSiteContact } = await import('../api/common.ts');
  try {
    $siteContact.set((await getSiteContact()) ?? {});
  } catch {
    // The footer shows no record numbers; nothing the visitor must act on.
  }
}

let homeRequest: Promise<HomeData> | undefined;

/** The home data: fetched once and reused, fetched again only when `reload` is true (SPEC §4). */
export function fetchHomeData(reload = false): Promise<HomeData> {
  const cached = $homeData.get();
  if (cached && !reload) return Promise.resolve(cached);
  // Concurrent callers share the request in flight.
  if (homeRequest && !reload) return homeRequest;
  const request = import('../api/home.ts').then(({ getHomeData }) => getHomeData());
  homeRequest = request;
  request.then(
    (data) => {
      if (homeRequest === request) $homeData.set(data);
    },
    () => {
      if (homeRequest === request) homeRequest = undefined;
    },
  );
  return request;
}

/** Puts the theme on the page root: `theme="dark"` on <html>, removed for the light theme. */
export function applyTheme(dark: boolean, root: HTMLElement | undefined = globalThis.document?.documentElement): void {
  if (!root) return;
  if (dark) root.setAttribute('theme', 'dark');
  else root.removeAttribute('theme');
  root.style.colorScheme = dark ? 'dark' : 'light';
}

/** Switches the theme and remembers the choice across visits. */
export function setDark(dark: boolean): void {
  $dark.set(dark);
  writeStorage(THEME_STORAGE_KEY, dark ? 'dark' : 'light');
  applyTheme(dark);
}

/** Flips the theme. */
export function toggleDark(): void {
  setDark(!$dark.get());
}

/** Reads the theme the inline head script already applied, so the store agrees with the page. */
export function restoreDark(): void {
  const stored = readStorage(THEME_STORAGE_KEY);
  const root = globalThis.document?.documentElement;
  $dark.set(root ? root.getAttribute('theme') === 'dark' : stored === 'dark');
}

/** Offers files in the download modal. */
export function openDownloadModal(files: DownloadFile[]): void {
  $downloadModal.set({ visible: true, files });
}

/** Closes the download modal. */
export function closeDownloadModal(): void {
  $downloadModal.set({ ...$downloadModal.get(), visible: false });
}

/**
 * Site-wide start-up (SPEC §2): resume a returning user's session, then load the friendly links and
 * the footer's record numbers.
 */
export async function startSite(): Promise<void> {
  const title = globalThis.document?.documentElement.dataset['siteTitle'];
  if (title) $appTitle.set(title);
  restoreDark();
  await resumeSession();
  await Promise.all([loadFriendLinks(), loadSiteContact()]);
}
