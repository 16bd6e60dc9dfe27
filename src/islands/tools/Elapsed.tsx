import { type ReactElement, useEffect, useState } from 'react';

/** Seconds as a person reads them: '12 秒', '1 分 05 秒'. */
export function formatElapsed(seconds: number): string {
  if (seconds < 60) return `${seconds} 秒`;
  return `${Math.floor(seconds / 60)} 分 ${String(seconds % 60).padStart(2, '0')} 秒`;
}

/**
 * 「已用 12 秒」 since `since` (a performance.now() time), once a second has passed, counted every
 * second: a long step shows that it is still working and for how long.
 */
export function Elapsed({ since }: { since: number }): ReactElement | null {
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(performance.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const seconds = Math.floor((now - since) / 1000);
  if (seconds < 1) return null;
  return <span className="tool-elapsed">已用 {formatElapsed(seconds)}</span>;
}
