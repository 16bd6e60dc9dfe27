import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { resetEnv } from '../../src/server/env.ts';
import { LocalStorage, StorageKeyError, storage, validateKey } from '../../src/server/storage/index.ts';

let root: string;
let store: LocalStorage;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'font-alliance-storage-'));
  store = new LocalStorage(root);
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('LocalStorage', () => {
  test('stores bytes and reads them back with their size', async () => {
    const stat = await store.put('fonts/a/b.ttf', new TextEncoder().encode('hello'));
    expect(stat.size).toBe(5);
    const object = await store.get('fonts/a/b.ttf');
    expect(object?.size).toBe(5);
    expect(object && (await text(object.body))).toBe('hello');
    expect(fs.readFileSync(path.join(root, 'fonts/a/b.ttf'), 'utf8')).toBe('hello');
  });

  test('stores a Node stream and a web stream', async () => {
    await store.put('node.txt', Readable.from([Buffer.from('ab'), Buffer.from('cd')]));
    await store.put('web.txt', new Blob(['web ', 'stream']).stream());
    expect((await store.stat('node.txt'))?.size).toBe(4);
    const object = await store.get('web.txt');
    expect(object && (await text(object.body))).toBe('web stream');
  });

  test('replaces an object whole and leaves no temporary file behind', async () => {
    await store.put('x.bin', new Uint8Array(10));
    await store.put('x.bin', new Uint8Array(3));
    expect((await store.stat('x.bin'))?.size).toBe(3);
    expect(fs.readdirSync(path.join(root, '.tmp'))).toEqual([]);
  });

  test('keeps the old object when a write fails midway', async () => {
    await store.put('keep.txt', new TextEncoder().encode('old'));
    async function* broken() {
      yield Buffer.from('new data that never completes');
      throw new Error('connection lost');
    }
    await expect(store.put('keep.txt', Readable.from(broken()))).rejects.toThrow('connection lost');
    expect(fs.readFileSync(path.join(root, 'keep.txt'), 'utf8')).toBe('old');
    expect(fs.readdirSync(path.join(root, '.tmp'))).toEqual([]);
  });

  test('answers undefined for a missing object and deletes without error', async () => {
    expect(await store.get('nothing/here.ttf')).toBeUndefined();
    expect(await store.stat('nothing/here.ttf')).toBeUndefined();
    await store.put('gone.txt', new Uint8Array(1));
    await store.delete('gone.txt');
    await store.delete('gone.txt');
    expect(await store.stat('gone.txt')).toBeUndefined();
  });

  test('returns the public path /files/<key>', () => {
    expect(store.url('fonts/noto-sans-sc/NotoSansSC_400Regular.ttf')).toBe(
      '/files/fonts/noto-sans-sc/NotoSansSC_400Regular.ttf',
    );
  });

  test.each([
    '../x',
    'a/../../x',
    '/etc/passwd',
    'a//b',
    './a',
    '.tmp/part',
    'a/.hidden',
    'a\\..\\b',
    '',
    'C:/x',
    'fonts/名字.ttf',
  ])('rejects the key %j', async (key) => {
    expect(() => validateKey(key)).toThrow(StorageKeyError);
    await expect(store.put(key, new Uint8Array(1))).rejects.toThrow(StorageKeyError);
    await expect(store.get(key)).rejects.toThrow(StorageKeyError);
  });
});

describe('storage', () => {
  test('returns a local storage under DATA_DIR/storage that follows DATA_DIR', async () => {
    const before = process.env['DATA_DIR'];
    try {
      process.env['DATA_DIR'] = root;
      resetEnv();
      await storage().put('probe/a.txt', new Uint8Array([1]), { hot: true });
      expect(fs.existsSync(path.join(root, 'storage', 'probe', 'a.txt'))).toBe(true);
      expect(storage()).toBe(storage());
    } finally {
      if (before === undefined) delete process.env['DATA_DIR'];
      else process.env['DATA_DIR'] = before;
      resetEnv();
    }
  });
});
