// Small stand-ins for the browser objects the stores touch (document.cookie, localStorage,
// sessionStorage, location), with real semantics: cookies expire, storage round-trips strings.

/** A cookie as the fake jar stores it. */
export interface StoredCookie {
  value: string;
  attributes: Record<string, string>;
}

/** A document whose `cookie` property behaves like a browser's (one origin, no paths). */
export class FakeDocument {
  readonly jar = new Map<string, StoredCookie>();
  /** Every string assigned to document.cookie, in order. */
  readonly writes: string[] = [];

  get cookie(): string {
    return [...this.jar].map(([name, cookie]) => `${name}=${cookie.value}`).join('; ');
  }

  set cookie(text: string) {
    this.writes.push(text);
    const [pair = '', ...parts] = text.split(';').map((part) => part.trim());
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    const attributes: Record<string, string> = {};
    for (const part of parts) {
      const at = part.indexOf('=');
      attributes[(at === -1 ? part : part.slice(0, at)).toLowerCase()] = at === -1 ? '' : part.slice(at + 1);
    }
    const maxAge = attributes['max-age'];
    const expires = attributes['expires'];
    const expired =
      (maxAge !== undefined && Number(maxAge) <= 0) || (expires !== undefined && Date.parse(expires) <= Date.now());
    if (expired) this.jar.delete(name);
    else this.jar.set(name, { value, attributes });
  }
}

/** An in-memory Web Storage. */
export class FakeStorage implements Storage {
  readonly #items = new Map<string, string>();

  get length(): number {
    return this.#items.size;
  }
  clear(): void {
    this.#items.clear();
  }
  getItem(key: string): string | null {
    return this.#items.get(key) ?? null;
  }
  key(index: number): string | null {
    return [...this.#items.keys()][index] ?? null;
  }
  removeItem(key: string): void {
    this.#items.delete(key);
  }
  setItem(key: string, value: string): void {
    this.#items.set(key, String(value));
  }
}

/** A location that records navigations instead of leaving the page. */
export class FakeLocation {
  pathname: string;
  protocol = 'http:';
  search = '';
  readonly assigned: string[] = [];

  constructor(pathname = '/') {
    this.pathname = pathname;
  }

  assign(url: string): void {
    this.assigned.push(url);
  }
}

/** The fakes installed on globalThis by {@link installBrowserFakes}. */
export interface BrowserFakes {
  document: FakeDocument;
  localStorage: FakeStorage;
  sessionStorage: FakeStorage;
  location: FakeLocation;
}

/** Puts fresh fakes on globalThis; call the returned function to remove them. */
export function installBrowserFakes(pathname = '/'): BrowserFakes & { restore: () => void } {
  const fakes: BrowserFakes = {
    document: new FakeDocument(),
    localStorage: new FakeStorage(),
    sessionStorage: new FakeStorage(),
    location: new FakeLocation(pathname),
  };
  const names = Object.keys(fakes) as (keyof BrowserFakes)[];
  const saved = names.map((name) => Object.getOwnPropertyDescriptor(globalThis, name));
  for (const name of names) {
    Object.defineProperty(globalThis, name, { value: fakes[name], configurable: true, writable: true });
  }
  return {
    ...fakes,
    restore: () => {
      names.forEach((name, index) => {
        const descriptor = saved[index];
        if (descriptor) Object.defineProperty(globalThis, name, descriptor);
        else delete (globalThis as Record<string, unknown>)[name];
      });
    },
  };
}
