import { describe, expect, test } from 'vitest';
import { FaceCache } from '../../src/server/engine/face-cache.ts';
import type { SubsetFace } from '../../src/server/engine/hb-subset.ts';

/** A face whose size can grow, as a real one does once preprocessed. */
function fakeFace(size: number): SubsetFace & { grow(to: number): void; destroyed: boolean } {
  let current = size;
  return {
    destroyed: false,
    get size() {
      return current;
    },
    grow(to: number) {
      current = to;
    },
    preprocessed: false,
    get preprocessedSize() {
      return current * 4;
    },
    uses: 0,
    subset: () => new Uint8Array(),
    preprocess: () => {},
    destroy() {
      this.destroyed = true;
    },
  };
}

describe('FaceCache', () => {
  test('evicts the least recently used faces beyond the budget, never the one just added', () => {
    const cache = new FaceCache(100);
    const a = fakeFace(40);
    const b = fakeFace(40);
    cache.set('a', a);
    cache.set('b', b);
    cache.get('a');
    const c = cache.set('c', fakeFace(40));
    expect(b.destroyed).toBe(true);
    expect(a.destroyed).toBe(false);
    expect(cache.get('c')).toBe(c);
    expect(cache.count).toBe(2);
  });

  test('says whether a face may grow without letting another go', () => {
    const cache = new FaceCache(100);
    cache.set('a', fakeFace(30));
    cache.set('b', fakeFace(30));
    expect(cache.hasRoomFor(40)).toBe(true);
    expect(cache.hasRoomFor(41)).toBe(false);
  });

  test('says which faces it let go, and not the one it only counted again', () => {
    const evicted: string[] = [];
    const cache = new FaceCache(100, (fontId) => evicted.push(fontId));
    const b = fakeFace(30);
    cache.set('a', fakeFace(30));
    cache.set('b', b);
    b.grow(90);
    cache.trim('b');
    expect(evicted).toEqual(['a']);
  });

  test('counts a face again when it grows, and trims the others to make room', () => {
    const cache = new FaceCache(100);
    const a = fakeFace(30);
    const b = fakeFace(30);
    cache.set('a', a);
    cache.set('b', b);
    b.grow(90);
    cache.trim('b');
    expect(a.destroyed).toBe(true);
    expect(b.destroyed).toBe(false);
    expect(cache.count).toBe(1);
  });
});
