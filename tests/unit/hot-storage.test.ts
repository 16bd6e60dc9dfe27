import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { HotStorage } from '../../src/server/storage/hot.ts';
import { LocalStorage } from '../../src/server/storage/local.ts';
import { RangeNotSatisfiableError } from '../../src/server/storage/types.ts';

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'hot-storage-'));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('HotStorage', () => {
  test('reads an object written hot from memory, and writes it to the driver too', async () => {
    const store = new HotStorage(new LocalStorage(root));
    const bytes = new Uint8Array([1, 2, 3, 4]);
    await store.put('subsets/a.woff2', bytes, { durable: false, hot: true });
    // Gone from the disk: only memory can answer now.
    expect(fs.readFileSync(path.join(root, 'subsets/a.woff2'))).toEqual(Buffer.from(bytes));
    fs.rmSync(path.join(root, 'subsets/a.woff2'));
    const object = await store.get('subsets/a.woff2');
    expect(object?.bytes).toEqual(bytes);
    expect(object?.size).toBe(4);
    expect(await store.stat('subsets/a.woff2')).toMatchObject({ size: 4 });
  });

  test('objects not written hot, deleted ones and replaced ones come from the driver', async () => {
    const store = new HotStorage(new LocalStorage(root));
    await store.put('fonts/a.ttf', new Uint8Array([9]));
    expect((await store.get('fonts/a.ttf'))?.bytes).toBeUndefined();
    await store.put('subsets/b.woff2', new Uint8Array([1]), { hot: true });
    await store.delete('subsets/b.woff2');
    expect(await store.get('subsets/b.woff2')).toBeUndefined();
    await store.put('subsets/c.woff2', new Uint8Array([1]), { hot: true });
    await store.put('subsets/c.woff2', new Uint8Array([2, 2]));
    const replaced = await store.get('subsets/c.woff2');
    expect(replaced?.bytes).toBeUndefined();
    expect(replaced?.size).toBe(2);
    replaced?.body.destroy();
    await store.put('subsets/d/e.woff2', new Uint8Array([1]), { hot: true });
    await store.deleteTree('subsets/d');
    expect(await store.get('subsets/d/e.woff2')).toBeUndefined();
  });

  test('reads a range of an object held in memory', async () => {
    const store = new HotStorage(new LocalStorage(root));
    await store.put('subsets/r.woff2', new Uint8Array([0, 1, 2, 3, 4, 5]), { hot: true });
    fs.rmSync(path.join(root, 'subsets/r.woff2'));
    const part = await store.get('subsets/r.woff2', { range: { start: 2, end: 3 } });
    expect(part).toMatchObject({ size: 6, range: { start: 2, end: 3 }, bytes: new Uint8Array([2, 3]) });
    await expect(store.get('subsets/r.woff2', { range: { start: 6 } })).rejects.toBeInstanceOf(
      RangeNotSatisfiableError,
    );
  });
});
