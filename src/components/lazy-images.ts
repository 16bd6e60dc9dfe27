// The browser half of LazyImage.astro: one throttled scroll/resize check for every lazy image on
// the page, including images that islands add later.
import { isInPreloadZone, LAZY_IMAGE, loadWithRetry, RecentSet, throttle } from '../lib/lazy-image.ts';

const SELECTOR = 'img[data-lazy-src]:not([data-lazy-state])';
const loaded = new RecentSet(LAZY_IMAGE.cacheSize);
let started = false;

function fetchImage(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = new Image();
    probe.onload = () => resolve();
    probe.onerror = () => reject(new Error(`Image failed to load: ${src}`));
    probe.src = src;
  });
}

function show(image: HTMLImageElement, src: string): void {
  const srcset = image.dataset['lazySrcset'];
  if (srcset) image.srcset = srcset;
  image.src = src;
  image.dataset['lazyState'] = 'loaded';
}

function load(image: HTMLImageElement): void {
  const src = image.dataset['lazySrc'];
  if (!src) return;
  if (loaded.has(src)) {
    show(image, src);
    return;
  }
  image.dataset['lazyState'] = 'loading';
  loadWithRetry(() => fetchImage(src)).then(
    () => {
      loaded.add(src);
      show(image, src);
    },
    () => {
      image.dataset['lazyState'] = 'error';
    },
  );
}

function check(): void {
  const viewport = { width: window.innerWidth, height: window.innerHeight };
  for (const image of document.querySelectorAll<HTMLImageElement>(SELECTOR)) {
    const src = image.dataset['lazySrc'];
    if (
      (src && loaded.has(src)) ||
      isInPreloadZone(image.getBoundingClientRect(), viewport, LAZY_IMAGE.preloadFactor)
    ) {
      load(image);
    }
  }
}

/** Starts watching lazy images; calling it again does nothing. */
export function startLazyImages(): void {
  if (started) return;
  started = true;
  const throttled = throttle(check, LAZY_IMAGE.throttleMs);
  window.addEventListener('scroll', throttled, { passive: true });
  window.addEventListener('resize', throttled, { passive: true });
  new MutationObserver(throttled).observe(document.body, { childList: true, subtree: true });
  check();
}
