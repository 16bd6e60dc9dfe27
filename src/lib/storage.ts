// Guarded access to localStorage and sessionStorage: absent during server rendering, and may throw
// in private browsing or when the quota is full. A failed write loses a preference, never the page.

type StorageKind = 'localStorage' | 'sessionStorage';

function storage(kind: StorageKind): Storage | undefined {
  try {
    return (globalThis as Partial<Record<StorageKind, Storage>>)[kind];
  } catch {
    return undefined;
  }
}

/** Reads a stored string, or null when it is missing or storage is unavailable. */
export function readStorage(key: string, kind: StorageKind = 'localStorage'): string | null {
  try {
    return storage(kind)?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

/** Stores a string; null removes the key. */
export function writeStorage(key: string, value: string | null, kind: StorageKind = 'localStorage'): void {
  try {
    const target = storage(kind);
    if (!target) return;
    if (value === null) target.removeItem(key);
    else target.setItem(key, value);
  } catch {
    // Storage full or blocked: the value only lives for this page view.
  }
}

/** Reads a stored JSON value, or `fallback` when it is missing or not valid JSON. */
export function readStoredJson<T>(key: string, fallback: T, kind: StorageKind = 'localStorage'): T {
  const raw = readStorage(key, kind);
  if (raw === null) return fallback;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return fallback;
  }
}
