import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { isChunkLoadError, mayReload } from '../../src/lib/chunk-reload.ts';
import { isInPreloadZone, LAZY_IMAGE, loadWithRetry, RecentSet, throttle } from '../../src/lib/lazy-image.ts';
import { $toasts, closeAllToasts, closeToast, showToast, TOAST_DURATION_MS } from '../../src/stores/toast.ts';

describe('showToast', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    closeAllToasts();
    vi.useRealTimers();
  });

  test('removes a toast after 3000 ms', () => {
    expect(TOAST_DURATION_MS).toBe(3000);
    showToast('已保存', 'success');
    vi.advanceTimersByTime(2999);
    expect($toasts.get()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect($toasts.get()).toHaveLength(0);
  });

  test('does not stack an identical message but restarts its timer', () => {
    const first = showToast('网络错误', 'error');
    vi.advanceTimersByTime(2000);
    expect(showToast('网络错误', 'error')).toBe(first);
    vi.advanceTimersByTime(2000);
    expect($toasts.get()).toHaveLength(1);
    vi.advanceTimersByTime(1000);
    expect($toasts.get()).toHaveLength(0);
  });

  test('closes one toast or all of them', () => {
    const a = showToast('一');
    showToast('二');
    closeToast(a);
    expect($toasts.get().map((t) => t.message)).toEqual(['二']);
    closeAllToasts();
    expect($toasts.get()).toEqual([]);
  });
});

describe('mayReload', () => {
  test.each([
    [100_000, null, true],
    [100_000, 100_000 - 60_000, true],
    [100_000, 100_000 - 59_999, false],
    [100_000, 100_000 - 1, false],
    [100_000, 200_000, true], // a clock that went backwards does not block forever
    [100_000, Number.NaN, true],
  ])('at %i with the last reload at %s returns %s', (now, last, expected) => {
    expect(mayReload(now, last)).toBe(expected);
  });
});

describe('isChunkLoadError', () => {
  test.each([
    [new TypeError('Failed to fetch dynamically imported module: https://x/_astro/a.js'), true],
    [new TypeError('error loading dynamically imported module'), true],
    [new TypeError('Importing a module script failed.'), true],
    [new Error('Unable to preload CSS for /_astro/a.css'), true],
    [new Error('Cannot read properties of undefined'), false],
    [undefined, false],
  ])('recognises %s → %s', (error, expected) => {
    expect(isChunkLoadError(error)).toBe(expected);
  });
});

describe('isInPreloadZone', () => {
  const viewport = { width: 1000, height: 800 };
  test.each([
    [{ top: 100, bottom: 300, left: 0, right: 100 }, true],
    [{ top: 1039, bottom: 1200, left: 0, right: 100 }, true], // within 1.3 × 800
    [{ top: 1041, bottom: 1200, left: 0, right: 100 }, false],
    [{ top: -500, bottom: -239, left: 0, right: 100 }, true],
    [{ top: -500, bottom: -241, left: 0, right: 100 }, false],
    [{ top: 0, bottom: 100, left: 1400, right: 1500 }, false],
  ])('with factor 1.3 places %j → %s', (box, expected) => {
    expect(isInPreloadZone(box, viewport, LAZY_IMAGE.preloadFactor)).toBe(expected);
  });
});

describe('throttle', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  test('runs at most once per period and once more at the end', () => {
    const calls: number[] = [];
    const run = throttle((n: number) => calls.push(n), 200);
    run(1);
    run(2);
    run(3);
    expect(calls).toEqual([1]);
    vi.advanceTimersByTime(200);
    expect(calls).toEqual([1, 3]);
  });
});

describe('RecentSet', () => {
  test('forgets the oldest entry beyond its capacity', () => {
    const set = new RecentSet(2);
    set.add('a');
    set.add('b');
    set.add('a'); // refreshes a
    set.add('c');
    expect(set.has('a')).toBe(true);
    expect(set.has('b')).toBe(false);
    expect(set.has('c')).toBe(true);
    expect(set.size).toBe(2);
  });
});

describe('loadWithRetry', () => {
  test('tries three times in all before giving up', async () => {
    let attempts = 0;
    await expect(
      loadWithRetry(async () => {
        attempts++;
        throw new Error('broken image');
      }),
    ).rejects.toThrow('broken image');
    expect(attempts).toBe(3);
  });

  test('stops at the first success', async () => {
    let attempts = 0;
    await loadWithRetry(async () => {
      attempts++;
      if (attempts < 2) throw new Error('flaky');
    });
    expect(attempts).toBe(2);
  });
});
