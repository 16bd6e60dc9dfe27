import { atom } from 'nanostores';

/** How a toast looks: the colour and icon, and whether screen readers announce it at once. */
export type ToastType = 'success' | 'info' | 'warning' | 'error';

/** A message shown at the top of the page until it times out or is closed. */
export interface Toast {
  id: number;
  message: string;
  type: ToastType;
}

/** SPEC §9: a toast stays 3000 ms unless closed earlier. */
export const TOAST_DURATION_MS = 3000;

/** The toasts on screen, oldest first. */
export const $toasts = atom<Toast[]>([]);

let nextId = 1;
const timers = new Map<number, ReturnType<typeof setTimeout>>();

function schedule(id: number, duration: number): void {
  clearTimeout(timers.get(id));
  if (duration > 0)
    timers.set(
      id,
      setTimeout(() => closeToast(id), duration),
    );
}

/**
 * Shows a toast and returns its id. The same message already on screen is not stacked again: its
 * timer starts over, so a burst of identical failures reads as one notice.
 */
export function showToast(message: string, type: ToastType = 'info', duration = TOAST_DURATION_MS): number {
  const same = $toasts.get().find((toast) => toast.message === message && toast.type === type);
  if (same) {
    schedule(same.id, duration);
    return same.id;
  }
  const id = nextId++;
  $toasts.set([...$toasts.get(), { id, message, type }]);
  schedule(id, duration);
  return id;
}

/** Removes one toast. */
export function closeToast(id: number): void {
  clearTimeout(timers.get(id));
  timers.delete(id);
  $toasts.set($toasts.get().filter((toast) => toast.id !== id));
}

/** Removes every toast (the Escape key does this). */
export function closeAllToasts(): void {
  for (const toast of $toasts.get()) closeToast(toast.id);
}
