import { describe, expect, test } from 'vitest';
import { readTester, testerStyle, writeTester } from '../../src/lib/type-tester.ts';

describe('the type tester in the address', () => {
  test('reads every setting back as it was written', () => {
    const state = {
      text: '天地玄黄',
      px: 48,
      lh: 1.8,
      ls: 0.12,
      align: 'center' as const,
      dir: 'v' as const,
      fg: '#8a1c1c',
      bg: '#f6efe0',
      weights: { 'noto-sans-sc': 700, 'noto-serif-tc': 300 },
    };
    const params = writeTester(new URLSearchParams('category=1'), state, 36);
    expect(params.get('category')).toBe('1');
    expect(params.get('dir')).toBe('v');
    expect(params.get('w')).toBe('noto-sans-sc:700,noto-serif-tc:300');
    expect(readTester(new URLSearchParams(params.toString()), 36)).toEqual(state);
  });

  test('adds nothing to the address while every setting is the default', () => {
    const params = writeTester(new URLSearchParams(), readTester(new URLSearchParams(), 56), 56);
    expect(params.toString()).toBe('');
  });

  test.each([
    ['px=9999', { px: 36 }],
    ['lh=0.1', { lh: null }],
    ['ls=abc', { ls: 0 }],
    ['align=middle', { align: 'start' }],
    ['dir=ttb', { dir: 'h' }],
    ['fg=red&bg=%23zzzzzz', { fg: '', bg: '' }],
    ['w=Noto_Sans:700,ok-gno:0,zcool:400', { weights: { zcool: 400 } }],
  ])('ignores a value it does not know (%s)', (query, expected) => {
    expect(readTester(new URLSearchParams(query), 36)).toMatchObject(expected);
  });

  test('draws only the settings that are set, so the page keeps its own for the others', () => {
    const style = testerStyle(readTester(new URLSearchParams('px=40'), 36));
    expect(style).toContain('--t-size: 40px');
    expect(style).not.toContain('--t-lh');
    expect(style).not.toContain('--t-fg');
  });
});
