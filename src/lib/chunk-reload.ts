// A page whose code was replaced by a new deployment fails to load its lazily imported chunks.
// Reloading fetches the new page; the guard keeps a chunk that is really broken from looping.

/** SPEC §9: at most one reload per 60 s. */
export const CHUNK_RELOAD_GUARD_MS = 60_000;
/** The sessionStorage key that remembers the last reload. */
export const CHUNK_RELOAD_KEY = 'chunk-reload-at';

const CHUNK_ERROR =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|ChunkLoadError|Loading chunk [\w-]+ failed/i;

/** True when an error (or rejection reason) says a lazily loaded chunk failed to load. */
export function isChunkLoadError(reason: unknown): boolean {
  if (!reason) return false;
  const text = reason instanceof Error ? `${reason.name}: ${reason.message}` : String(reason);
  return CHUNK_ERROR.test(text);
}

/** True when the page may reload now: no reload is remembered within the guard time. */
export function mayReload(now: number, lastReloadAt: number | null, guardMs = CHUNK_RELOAD_GUARD_MS): boolean {
  return lastReloadAt === null || !Number.isFinite(lastReloadAt) || now - lastReloadAt >= guardMs || now < lastReloadAt;
}

/**
 * Listens for failed chunk loads (Vite's `vite:preloadError`, rejected dynamic imports, failed
 * module scripts) and reloads the page at most once per guard period.
 */
export function installChunkReloadGuard(win: Window): void {
  const reload = (event: Event, reason: unknown) => {
    if (!isChunkLoadError(reason)) return;
    const raw = win.sessionStorage?.getItem(CHUNK_RELOAD_KEY);
    const last = raw === null || raw === undefined ? null : Number(raw);
    const now = Date.now();
    if (!mayReload(now, last)) return;
    event.preventDefault();
    try {
      win.sessionStorage.setItem(CHUNK_RELOAD_KEY, String(now));
    } catch {
      // Without storage the guard cannot remember; reloading once is still right.
    }
    win.location.reload();
  };
  win.addEventListener('vite:preloadError', (event) => reload(event, (event as Event & { payload?: unknown }).payload));
  win.addEventListener('unhandledrejection', (event) => reload(event, event.reason));
  win.addEventListener('error', (event) => reload(event, event.error ?? event.message));
}
