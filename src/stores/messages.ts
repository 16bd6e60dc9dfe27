import { atom } from 'nanostores';
import type { NotificationSummary } from '../contract/messages.ts';
import { $messageList, $token, type UserMessage } from './user.ts';

/** Unread messages of the signed-in user (the header badge); 0 for visitors. */
export const $unreadMessages = atom(0);

// The badge asks every 30 s while the page is visible; failures and hidden tabs back off to 5 min.
const BASE_MS = 30_000;
const MAX_MS = 5 * 60_000;
let delay = BASE_MS;
let timer: ReturnType<typeof setTimeout> | undefined;
let inFlight: Promise<void> | undefined;

function apply(summary: NotificationSummary): void {
  $unreadMessages.set(summary.unread);
  $messageList.set(summary.latest.map((item): UserMessage => ({ ...item })));
}

/** Asks the server for the unread count now (after reading a message, on return to the tab). */
export function refreshUnread(): Promise<void> {
  if (!$token.get()) {
    $unreadMessages.set(0);
    return Promise.resolve();
  }
  inFlight ??= (async () => {
    try {
      const { getNotificationSummary } = await import('../api/user-data.ts');
      apply(await getNotificationSummary({ background: true }));
      delay = BASE_MS;
    } catch {
      delay = Math.min(delay * 2, MAX_MS);
    } finally {
      inFlight = undefined;
    }
  })();
  return inFlight;
}

function schedule(): void {
  clearTimeout(timer);
  if (!$token.get()) return;
  const wait = document.visibilityState === 'visible' ? delay : MAX_MS;
  timer = setTimeout(async () => {
    await refreshUnread();
    schedule();
  }, wait);
}

/**
 * Keeps the badge current while a user is signed in: asks at once, then polls with back-off, and
 * asks again when the reader comes back to the tab. Signing out stops it and clears the count.
 */
export function watchUnread(): void {
  $token.subscribe((token) => {
    if (!token) {
      clearTimeout(timer);
      $unreadMessages.set(0);
      return;
    }
    void refreshUnread().then(schedule);
  });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState !== 'visible' || !$token.get()) return;
    void refreshUnread().then(schedule);
  });
}
