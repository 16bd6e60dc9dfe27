// Scripts that take over some link clicks (the login guard, the library's in-place filters) take
// only plain ones: a left click without a modifier on a link that opens here. A click that opens a
// new tab or window, or downloads, is left to the browser.

/** The same-origin address a plain click on a link goes to, or undefined for any other click. */
export function plainLinkClick(event: MouseEvent): URL | undefined {
  if (
    event.defaultPrevented ||
    event.button !== 0 ||
    event.metaKey ||
    event.ctrlKey ||
    event.shiftKey ||
    event.altKey
  ) {
    return undefined;
  }
  const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
  if (
    !(link instanceof HTMLAnchorElement) ||
    (link.target && link.target !== '_self') ||
    link.hasAttribute('download')
  ) {
    return undefined;
  }
  const url = new URL(link.href, location.href);
  return url.origin === location.origin ? url : undefined;
}
