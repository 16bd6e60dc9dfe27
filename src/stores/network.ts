import { atom } from 'nanostores';

/** How many API requests are in flight; the top loading bar follows it. */
export const $pendingRequests = atom(0);

/** Whether the browser reports a network connection. */
export const $online = atom(true);

/** Counts a request as started. */
export function beginRequest(): void {
  $pendingRequests.set($pendingRequests.get() + 1);
}

/** Counts a request as finished, whatever its outcome. */
export function endRequest(): void {
  $pendingRequests.set(Math.max(0, $pendingRequests.get() - 1));
}

/**
 * Follows the browser's online and offline events; returns a function that stops listening. Each
 * event says what it means: a connection dropped and back within one task still shows both
 * changes, where reading navigator.onLine in the handlers would see "online" twice.
 */
export function trackOnlineStatus(target: Window): () => void {
  $online.set(target.navigator.onLine);
  const online = () => $online.set(true);
  const offline = () => $online.set(false);
  target.addEventListener('online', online);
  target.addEventListener('offline', offline);
  return () => {
    target.removeEventListener('online', online);
    target.removeEventListener('offline', offline);
  };
}
