import { describe, expect, test } from 'vitest';
import { $online, trackOnlineStatus } from '../../src/stores/network.ts';

describe('trackOnlineStatus', () => {
  test('a connection that drops and comes back before the handlers run still shows both changes', () => {
    // navigator.onLine already says "online" again by the time the offline event is handled.
    const target = Object.assign(new EventTarget(), { navigator: { onLine: true } }) as unknown as Window;
    const stop = trackOnlineStatus(target);
    const seen: boolean[] = [];
    const unlisten = $online.listen((online) => seen.push(online));
    target.dispatchEvent(new Event('offline'));
    target.dispatchEvent(new Event('online'));
    expect(seen).toEqual([false, true]);
    unlisten();
    stop();
    target.dispatchEvent(new Event('offline'));
    expect($online.get()).toBe(true);
  });
});
