import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { type BrowserFakes, installBrowserFakes } from '../helpers/browser-fakes.ts';

type CompareModule = typeof import('../../src/stores/compare.ts');
type UserModule = typeof import('../../src/stores/user.ts');
type ToastModule = typeof import('../../src/stores/toast.ts');

let fakes: BrowserFakes & { restore: () => void };
let compare: CompareModule;
let user: UserModule;
let toast: ToastModule;

beforeEach(async () => {
  fakes = installBrowserFakes();
  vi.resetModules();
  compare = await import('../../src/stores/compare.ts');
  user = await import('../../src/stores/user.ts');
  toast = await import('../../src/stores/toast.ts');
});

afterEach(() => {
  toast.closeAllToasts();
  fakes.restore();
});

const stored = () => JSON.parse(fakes.localStorage.getItem('compareFonts') ?? 'null');
const lastToast = () => toast.$toasts.get().at(-1);

describe('addCompare', () => {
  test('adds a font, persists the list and says so', () => {
    const result = compare.addCompare({ id: 7, familyName: '思源黑体' });
    expect(result).toEqual({ ok: true, message: compare.COMPARE_MESSAGES.added });
    expect(user.$compareFonts.get()).toEqual([{ id: 7, familyName: '思源黑体' }]);
    expect(stored()).toEqual([{ id: 7, familyName: '思源黑体' }]);
    expect(lastToast()).toMatchObject({ message: '已加入字体对比', type: 'success' });
  });

  test('refuses a font already on the list, comparing ids as text', () => {
    compare.addCompare({ id: 7 });
    const result = compare.addCompare({ id: '7' });
    expect(result).toEqual({ ok: false, message: compare.COMPARE_MESSAGES.duplicate });
    expect(user.$compareFonts.get()).toHaveLength(1);
    expect(stored()).toHaveLength(1);
    expect(lastToast()?.message).toBe(compare.COMPARE_MESSAGES.duplicate);
  });
});

describe('removeCompare', () => {
  test('removes a font and persists the shorter list', () => {
    compare.addCompare({ id: 1 });
    compare.addCompare({ id: 2 });
    const result = compare.removeCompare(1);
    expect(result).toEqual({ ok: true, message: compare.COMPARE_MESSAGES.removed });
    expect(user.$compareFonts.get()).toEqual([{ id: 2 }]);
    expect(stored()).toEqual([{ id: 2 }]);
  });

  test('reports a font that is not on the list and changes nothing', () => {
    compare.addCompare({ id: 1 });
    const result = compare.removeCompare(99);
    expect(result).toEqual({ ok: false, message: compare.COMPARE_MESSAGES.missing });
    expect(user.$compareFonts.get()).toEqual([{ id: 1 }]);
    expect(lastToast()).toMatchObject({ message: compare.COMPARE_MESSAGES.missing, type: 'warning' });
  });
});

describe('restoreCompare', () => {
  test('reads the list a previous page stored', async () => {
    fakes.localStorage.setItem('compareFonts', JSON.stringify([{ id: 3 }, { id: 'noto-sans-sc' }]));
    vi.resetModules();
    const fresh = await import('../../src/stores/compare.ts');
    const freshUser = await import('../../src/stores/user.ts');
    expect(freshUser.$compareFonts.get()).toEqual([]);
    expect(fresh.restoreCompare()).toEqual([{ id: 3 }, { id: 'noto-sans-sc' }]);
    expect(freshUser.$compareFonts.get()).toEqual([{ id: 3 }, { id: 'noto-sans-sc' }]);
  });

  test.each([['not json'], ['{"id":1}'], ['[1, null, {"name":"x"}, {"id":4}]']])(
    'keeps only well-formed entries of %j',
    (raw) => {
      fakes.localStorage.setItem('compareFonts', raw);
      const list = compare.restoreCompare();
      expect(list.every((item) => typeof item === 'object' && 'id' in item)).toBe(true);
    },
  );

  test('works without storage (private mode), keeping the list in memory', () => {
    Object.defineProperty(globalThis, 'localStorage', {
      configurable: true,
      get() {
        throw new Error('SecurityError');
      },
    });
    expect(compare.addCompare({ id: 5 }).ok).toBe(true);
    expect(user.$compareFonts.get()).toEqual([{ id: 5 }]);
    expect(compare.restoreCompare()).toEqual([]);
  });
});

describe('COMPARE_MESSAGES', () => {
  test('are four distinct Chinese sentences', () => {
    const messages = Object.values(compare.COMPARE_MESSAGES);
    expect(new Set(messages).size).toBe(4);
    for (const message of messages) expect(message).toMatch(/[\u4e00-\u9fff]/);
  });
});
