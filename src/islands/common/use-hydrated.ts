import { useEffect, useState } from 'react';

/**
 * False during server rendering and the first browser render, true afterwards. Islands that show
 * browser-only state (theme, login) render the server's version first, so hydration matches.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
