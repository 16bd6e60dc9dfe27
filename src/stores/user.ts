import { atom } from 'nanostores';
import type { UserInfo } from '../api/account.ts';
import type { FavoriteEntry, FavoriteFontGroup } from '../api/favorites.ts';
import type { Id } from '../api/types.ts';

import { $token, readTokenCookie, setToken, TOKEN_COOKIE } from './session.ts';

// The token lives in session.ts, which the API client also reads; the user's data hangs on it here.
export { $token, readTokenCookie, setToken, TOKEN_COOKIE };

/** Which form the account modal shows. */
export type AccountModalType = 'login' | 'register' | 'forget' | 'bind' | (string & {});

/** The account modal's state (SPEC §3: visible flag; type, default login). */
export interface AccountModalState {
  visible: boolean;
  type: AccountModalType;
  /** Why the dialog opened, when the visitor did not open it themselves (a protected page sent them). */
  reason?: string;
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

/**
 * Forgets the session in this browser: token (store and cookie), user info and favourites. SPEC §4
 * names token, user info and favourite fonts; the other favourites and messages belong to the same
 * user and go with them.
 */
export function clearToken(): void {
  setToken('');
}

// However the session ends (logout, an expired token seen by the API client), its data goes with it.
$token.listen((token) => {
  if (token) return;
  $userInfo.set(null);
  $favoriteFonts.set([]);
  $favoriteArticles.set([]);
  $favoriteCollects.set([]);
  $messageList.set([]);
});

/** True when a token is known, from the store or the cookie (SPEC §2's guard rule). */
export function isLoggedIn(): boolean {
  return Boolean($token.get() || readTokenCookie());
}

/** Opens the account modal on a form (login unless told otherwise), saying why when it was not asked for. */
export function openAccountModal(type: AccountModalType = 'login', reason?: string): void {
  $accountModal.set({ visible: true, type, ...(reason ? { reason } : {}) });
}

/** Closes the account modal, keeping the form type for next time. */
export function closeAccountModal(): void {
  $accountModal.set({ visible: false, type: $accountModal.get().type });
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
