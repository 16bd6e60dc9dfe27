import Cookies from 'js-cookie';
import { atom } from 'nanostores';
import type { UserInfo } from '../api/account.ts';
import type { FavoriteEntry, FavoriteFontGroup } from '../api/favorites.ts';
import type { Id } from '../api/types.ts';

import { TOKEN_COOKIE } from '../lib/routes.ts';

export { TOKEN_COOKIE };

/** Which form the account modal shows. */
export type AccountModalType = 'login' | 'register' | 'forget' | 'bind' | (string & {});

/** The account modal's state (SPEC §3: visible flag; type, default login). */
export interface AccountModalState {
  visible: boolean;
  type: AccountModalType;
}

/** A font on the compare list: it carries its id (SPEC §3). */
export interface CompareFont {
  id: Id;
  familyName?: string;
  [key: string]: unknown;
}

/** A message of the user's message centre. */
export interface UserMessage {
  id: Id;
  title: string;
  [key: string]: unknown;
}

/** The session token; empty for visitors. */
export const $token = atom('');
/** The signed-in user, or null. */
export const $userInfo = atom<UserInfo | null>(null);
/** The login/register modal. */
export const $accountModal = atom<AccountModalState>({ visible: false, type: 'login' });
/** Favourite font groups, each with its fontList. */
export const $favoriteFonts = atom<FavoriteFontGroup[]>([]);
/** Favourite articles (by id). */
export const $favoriteArticles = atom<FavoriteEntry[]>([]);
/** Favourite albums and collections (by id). */
export const $favoriteCollects = atom<FavoriteEntry[]>([]);
/** The compare list; src/stores/compare.ts keeps it and its storage. */
export const $compareFonts = atom<CompareFont[]>([]);
/** The user's messages. */
export const $messageList = atom<UserMessage[]>([]);

function cookieDomain(): string | undefined {
  return import.meta.env?.['PUBLIC_COOKIE_DOMAIN'] || undefined;
}

function cookieAttributes(): Cookies.CookieAttributes {
  const secure = globalThis.location?.protocol === 'https:';
  const domain = cookieDomain();
  return { path: '/', sameSite: 'Lax', ...(secure ? { secure } : {}), ...(domain ? { domain } : {}) };
}

/** The token cookie's value, or '' when there is none (or during server rendering). */
export function readTokenCookie(): string {
  if (typeof document === 'undefined') return '';
  return Cookies.get(TOKEN_COOKIE) ?? '';
}

/**
 * Stores the token in the store and the cookie `token` (path /, the configured domain if any,
 * max-age `expired` seconds). An empty token removes the cookie.
 */
export function setToken(token: string, expired?: number): void {
  $token.set(token);
  if (typeof document === 'undefined') return;
  if (!token) {
    Cookies.remove(TOKEN_COOKIE, cookieAttributes());
    return;
  }
  const lifetime = expired !== undefined && Number.isFinite(expired) && expired > 0 ? Math.floor(expired) : undefined;
  // js-cookie writes unknown attributes as they are, so max-age reaches the browser unchanged.
  Cookies.set(TOKEN_COOKIE, token, {
    ...cookieAttributes(),
    ...(lifetime !== undefined ? { 'max-age': String(lifetime) } : {}),
  });
}

/**
 * Forgets the session in this browser: token (store and cookie), user info and favourites. SPEC §4
 * names token, user info and favourite fonts; the other favourites and messages belong to the same
 * user and go with them.
 */
export function clearToken(): void {
  setToken('');
  $userInfo.set(null);
  $favoriteFonts.set([]);
  $favoriteArticles.set([]);
  $favoriteCollects.set([]);
  $messageList.set([]);
}

/** True when a token is known, from the store or the cookie (SPEC §2's guard rule). */
export function isLoggedIn(): boolean {
  return Boolean($token.get() || readTokenCookie());
}

/** Opens the account modal on a form (login unless told otherwise). */
export function openAccountModal(type: AccountModalType = 'login'): void {
  $accountModal.set({ visible: true, type });
}

/** Closes the account modal, keeping the form type for next time. */
export function closeAccountModal(): void {
  $accountModal.set({ ...$accountModal.get(), visible: false });
}

/** Loads the signed-in user's profile. */
export async function loadUserInfo(): Promise<void> {
  const { getUserInfo } = await import('../api/account.ts');
  $userInfo.set(await getUserInfo());
}

/** Loads the favourite font groups. */
export async function loadFavoriteFonts(): Promise<void> {
  const { getFavoriteFonts } = await import('../api/favorites.ts');
  $favoriteFonts.set((await getFavoriteFonts()) ?? []);
}

/** Loads the favourite articles. */
export async function loadFavoriteArticles(): Promise<void> {
  const { getFavoriteArticles } = await import('../api/favorites.ts');
  $favoriteArticles.set((await getFavoriteArticles()) ?? []);
}

/** Loads the favourite albums and collections. */
export async function loadFavoriteCollects(): Promise<void> {
  const { getFavoriteCollects } = await import('../api/favorites.ts');
  $favoriteCollects.set((await getFavoriteCollects()) ?? []);
}

/**
 * What a successful login does (SPEC §4): store the token with its lifetime, then load user info,
 * favourite fonts, favourite articles and favourite collections in turn.
 */
export async function loginWithToken(token: string, expired: number): Promise<void> {
  setToken(token, expired);
  await loadUserInfo();
  await loadFavoriteFonts();
  await loadFavoriteArticles();
  await loadFavoriteCollects();
}

/**
 * Start-up for a returning user (SPEC §2): with a token cookie, keep the token and load user info,
 * favourite fonts, favourite collections and favourite articles. Each failure was already shown by
 * the client; one failing call does not stop the others.
 */
export async function resumeSession(): Promise<void> {
  const token = readTokenCookie();
  if (!token) return;
  $token.set(token);
  for (const load of [loadUserInfo, loadFavoriteFonts, loadFavoriteCollects, loadFavoriteArticles]) {
    if (!$token.get()) return; // an expired session was cleared by the first answer
    await load().catch(() => undefined);
  }
}

/**
 * Logs out (SPEC §4): if a token exists the server is told (a failure is only logged), then the
 * session is cleared here regardless.
 */
export async function logout(): Promise<void> {
  if ($token.get()) {
    try {
      const { logout: logoutCall } = await import('../api/account.ts');
      await logoutCall();
    } catch (error) {
      console.warn('Logout request failed; clearing the local session anyway.', error);
    }
  }
  clearToken();
}
