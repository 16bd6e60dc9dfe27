const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The parts of a keydown event the trap reads; DOM and React keyboard events both have them. */
export interface TabKeyEvent {
  key: string;
  shiftKey: boolean;
  currentTarget: EventTarget | null;
  preventDefault(): void;
}

/**
 * Keeps Tab inside a modal: from the last control it goes to the first, and Shift+Tab from the
 * first goes to the last. A native modal <dialog> makes the page behind it inert, but would still
 * let focus leave for the browser's own toolbar. Bind it as the dialog's keydown listener.
 */
export function trapTab(event: TabKeyEvent): void {
  const container = event.currentTarget;
  if (event.key !== 'Tab' || !(container instanceof HTMLElement)) return;
  const items = [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (element) => element.getClientRects().length > 0,
  );
  const first = items[0];
  const last = items.at(-1);
  if (!first || !last) return;
  const active = document.activeElement;
  if (event.shiftKey && (active === first || !container.contains(active))) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || !container.contains(active))) {
    event.preventDefault();
    first.focus();
  }
}
