import { describe, expect, test } from 'vitest';
import type { CaptchaTrack } from '../../src/contract/captcha.ts';
import { judgeTrack, parseTrack } from '../../src/server/auth/captcha-track.ts';
import { humanTrack } from '../helpers/captcha-solver.ts';

const MAX_X = 250;
const keys = (points: [number, number, number][]): CaptchaTrack => ({ kind: 'keys', points });

describe('judgeTrack', () => {
  test.each([1, 2, 3, 4, 5])("passes a hand's drag (seed %i)", (seed) => {
    expect(judgeTrack(humanTrack(150, seed), 150, MAX_X)).toEqual({ ok: true });
  });

  test.each<[string, CaptchaTrack]>([
    [
      'time running backwards',
      { kind: 'pointer', points: humanTrack(150).points.map(([t, x, y], i) => [i === 5 ? 0 : t, x, y]) },
    ],
    ['a drag starting mid-way', { kind: 'pointer', points: humanTrack(150).points.map(([t, x, y]) => [t, x + 40, y]) }],
    ['a perfectly level drag', { kind: 'pointer', points: humanTrack(150).points.map(([t, x]) => [t, x, 0]) }],
    ['a drag in 60 ms', { kind: 'pointer', points: humanTrack(150).points.map(([t, x, y]) => [t / 10, x, y]) }],
  ])('refuses %s', (_name, track) => {
    expect(judgeTrack(track, track.points.at(-1)?.[1] ?? 0, MAX_X).ok).toBe(false);
  });

  test.each<[string, [number, number, number][], boolean]>([
    [
      'arrow-key steps over 600 ms',
      [
        [0, 0, 0],
        [200, 10, 0],
        [400, 20, 0],
        [600, 21, 0],
      ],
      true,
    ],
    [
      'End, then a step back',
      [
        [0, 0, 0],
        [300, MAX_X, 0],
        [500, MAX_X - 10, 0],
      ],
      true,
    ],
    [
      'a key that moves 40 px',
      [
        [0, 0, 0],
        [400, 40, 0],
      ],
      false,
    ],
    [
      'keys pressed in 50 ms',
      [
        [0, 0, 0],
        [50, 10, 0],
      ],
      false,
    ],
  ])('judges keys: %s', (_name, points, passes) => {
    expect(judgeTrack(keys(points), points.at(-1)?.[1] ?? 0, MAX_X).ok).toBe(passes);
  });
});

describe('parseTrack', () => {
  test.each([
    ['not JSON', 'x'],
    ['another kind', '{"kind":"touch","points":[[0,0,0],[1,1,1]]}'],
    ['a sample of two numbers', '{"kind":"keys","points":[[0,0],[1,1,1]]}'],
    ['a string in a sample', '{"kind":"keys","points":[[0,"0",0],[1,1,1]]}'],
    ['one sample', '{"kind":"keys","points":[[0,0,0]]}'],
    ['too many samples', JSON.stringify({ kind: 'keys', points: Array.from({ length: 601 }, () => [0, 0, 0]) })],
  ])('refuses %s', (_name, json) => {
    expect(parseTrack(json)).toBeUndefined();
  });

  test('reads a track', () => {
    expect(parseTrack('{"kind":"keys","points":[[0,0,0],[300,10,0]]}')).toEqual(
      keys([
        [0, 0, 0],
        [300, 10, 0],
      ]),
    );
  });
});
