import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer, text } from 'node:stream/consumers';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { resetEnv } from '../../src/server/env.ts';
import { withSecurityHeaders } from '../../src/server/http/security-headers.ts';
import {
  INCOMING_PREFIX,
  LocalStorage,
  RangeNotSatisfiableError,
  type Storage,
  StorageKeyError,
  storage,
  validateKey,
} from '../../src/server/storage/index.ts';

import { fileRoutes } from '../../src/server/storage/routes.ts';
import { S3Storage } from '../../src/server/storage/s3.ts';
import { routesApp } from '../helpers/font-library.ts';
import { type S3Server, startS3Server } from '../helpers/s3-server.ts';

let root: string;
let s3: S3Server;
const savedEnv = { ...process.env };

beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3.close();
});
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'font-alliance-storage-'));
  // The site's own PUT /files/<key> (presigned uploads of the local driver) writes to DATA_DIR.
  process.env['DATA_DIR'] = root;
  resetEnv();
});
afterEach(() => {
  process.env = { ...savedEnv };
  resetEnv();
  fs.rmSync(root, { recursive: true, force: true });
});

/** Every driver, each on an empty store per test. */
const drivers: Array<{ name: string; open: () => Storage; checksSignatures: boolean }> = [
  // The local driver's folder is the one the site's file routes serve (DATA_DIR/storage).
  { name: 'local files', open: () => new LocalStorage(path.join(root, 'storage')), checksSignatures: true },
  // A fresh folder of the bucket per test; three keys a page, so listing and deleting go over pages.
  // s3rver does not check SigV4 signatures (S3, MinIO, OSS, COS and R2 do).
  {
    name: 'S3 (s3rver)',
    open: () => new S3Storage(s3.config(`t-${randomUUID()}`, { pageSize: 3 })),
    checksSignatures: false,
  },
];

/** The site's own /files routes, which check the local driver's presigned uploads. */
const siteFiles = routesApp((app) => app.route('/files', fileRoutes()));

/** Sends a presigned request: to the bucket with fetch, or to the site's own PUT /files/<key>. */
function send(url: string, init: RequestInit): Promise<Response> {
  return url.startsWith('http') ? fetch(url, init) : Promise.resolve(siteFiles.request(url, init));
}

/** `size` bytes in chunks of 64 KiB, as a stream that never says its length. */
function stream(size: number, seed: number): { source: Readable; digest: string } {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + seed) % 251;
  const chunks = function* () {
    for (let at = 0; at < size; at += 65_536) yield bytes.subarray(at, at + 65_536);
  };
  return { source: Readable.from(chunks()), digest: createHash('sha256').update(bytes).digest('hex') };
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe.each(drivers)('storage driver: $name', ({ open, checksSignatures }) => {
  let store: Storage;
  beforeEach(() => {
    store = open();
  });

  test('stores bytes and reads them back with their size and time', async () => {
    const before = Date.now() - 2000;
    const stat = await store.put('fonts/a/b.ttf', new TextEncoder().encode('hello'));
    expect(stat.size).toBe(5);
    expect(stat.mtime.getTime()).toBeGreaterThan(before);
    const object = await store.get('fonts/a/b.ttf');
    expect(object?.size).toBe(5);
    expect(object && (await text(object.body))).toBe('hello');
    expect(await store.stat('fonts/a/b.ttf')).toEqual({ size: 5, mtime: stat.mtime });
  });

  test('stores a Node stream and a web stream', async () => {
    await store.put('node.txt', Readable.from([Buffer.from('ab'), Buffer.from('cd')]));
    await store.put('web.txt', new Blob(['web ', 'stream']).stream());
    expect((await store.stat('node.txt'))?.size).toBe(4);
    const object = await store.get('web.txt');
    expect(object && (await text(object.body))).toBe('web stream');
  });

  test('stores a stream of unknown length larger than one upload part (S3 multipart)', async () => {
    const { source, digest } = stream(11 * 1024 * 1024 + 123, 7);
    const stat = await store.put('big/font.ttf', source);
    expect(stat.size).toBe(11 * 1024 * 1024 + 123);
    const object = await store.get('big/font.ttf');
    expect(object && sha256(await buffer(object.body))).toBe(digest);
  });

  test('replaces an object whole', async () => {
    await store.put('x.bin', new Uint8Array(10));
    await store.put('x.bin', new Uint8Array([1, 2, 3]));
    const object = await store.get('x.bin');
    expect(object?.size).toBe(3);
    expect(object && [...(await buffer(object.body))]).toEqual([1, 2, 3]);
  });

  test('keeps the old object when a write fails midway, also past the first upload part', async () => {
    await store.put('keep.txt', new TextEncoder().encode('old'));
    async function* broken() {
      // Two S3 parts' worth goes out before the connection is lost.
      for (let i = 0; i < 12 * 16; i++) yield Buffer.alloc(65_536, i);
      throw new Error('connection lost');
    }
    await expect(store.put('keep.txt', Readable.from(broken()))).rejects.toThrow('connection lost');
    const object = await store.get('keep.txt');
    expect(object && (await text(object.body))).toBe('old');
    await expect(store.put('fresh.txt', Readable.from(broken()))).rejects.toThrow('connection lost');
    expect(await store.stat('fresh.txt')).toBeUndefined();
    expect(await store.list('fresh.txt')).toEqual([]);
  });

  test('answers undefined for a missing object and deletes without error', async () => {
    expect(await store.get('nothing/here.ttf')).toBeUndefined();
    expect(await store.get('nothing/here.ttf', { range: { start: 2 } })).toBeUndefined();
    expect(await store.stat('nothing/here.ttf')).toBeUndefined();
    await store.put('gone.txt', new Uint8Array(1));
    await store.delete('gone.txt');
    await store.delete('gone.txt');
    expect(await store.stat('gone.txt')).toBeUndefined();
  });

  test('lists and deletes a folder over several pages, and nothing beside it', async () => {
    const keys = Array.from({ length: 8 }, (_, i) => `tree/${i % 2 ? 'deep/' : ''}k${i}.bin`);
    await Promise.all(keys.map((key) => store.put(key, new Uint8Array([1]))));
    await store.put('treetop/other.bin', new Uint8Array([2]));
    await store.put('tree.bin', new Uint8Array([3]));
    expect((await store.list('tree')).sort()).toEqual([...keys].sort());
    expect(await store.list('tree/deep')).toHaveLength(4);
    expect(await store.list('missing')).toEqual([]);
    await store.deleteTree('tree');
    expect(await store.list('tree')).toEqual([]);
    expect(await store.stat('treetop/other.bin')).toBeDefined();
    expect(await store.stat('tree.bin')).toBeDefined();
    await store.deleteTree('tree');
  });

  test('sweeping leftovers never removes a stored object', async () => {
    await store.put('tools/uploads/u1/a.bin', new Uint8Array([1]));
    const removed = await store.sweepLeftovers(new Date(Date.now() + 60_000), 'tools');
    expect(removed).toBeGreaterThanOrEqual(0);
    expect(await store.list('tools')).toEqual(['tools/uploads/u1/a.bin']);
  });

  test('reads a range: both ends, an open end, the last bytes, and an end past the object', async () => {
    await store.put('r.txt', new TextEncoder().encode('0123456789'));
    const read = async (range: Parameters<Storage['get']>[1]) => {
      const object = await store.get('r.txt', range);
      return { size: object?.size, range: object?.range, text: object && (await text(object.body)) };
    };
    expect(await read({ range: { start: 2, end: 4 } })).toEqual({ size: 10, range: { start: 2, end: 4 }, text: '234' });
    expect(await read({ range: { start: 7 } })).toEqual({ size: 10, range: { start: 7, end: 9 }, text: '789' });
    expect(await read({ range: { suffix: 3 } })).toEqual({ size: 10, range: { start: 7, end: 9 }, text: '789' });
    expect(await read({ range: { start: 8, end: 99 } })).toEqual({ size: 10, range: { start: 8, end: 9 }, text: '89' });
    expect(await read({ range: { suffix: 50 } })).toEqual({
      size: 10,
      range: { start: 0, end: 9 },
      text: '0123456789',
    });
    const past = store.get('r.txt', { range: { start: 10 } });
    await expect(past).rejects.toBeInstanceOf(RangeNotSatisfiableError);
    await expect(past).rejects.toMatchObject({ size: 10 });
  });

  test('takes a presigned upload of exactly the signed size and type, and hands it out again', async () => {
    const key = `${INCOMING_PREFIX}/7-${randomUUID()}/upload.ttf`;
    const bytes = new TextEncoder().encode('a font, supposedly');
    const now = new Date();
    const ticket = await store.presignPut(key, { size: bytes.byteLength, type: 'font/ttf', expiresSeconds: 60, now });
    expect(ticket.headers).toEqual({ 'content-length': String(bytes.byteLength), 'content-type': 'font/ttf' });
    const put = await send(ticket.url, { method: 'PUT', headers: ticket.headers, body: bytes });
    expect(put.status).toBe(200);
    expect(await store.stat(key)).toMatchObject({ size: bytes.byteLength });

    const link = await store.presignGet(key, {
      disposition: 'attachment; filename="a.ttf"',
      type: 'font/ttf',
      expiresSeconds: 60,
      now,
    });
    if (link === undefined) {
      // Local files are streamed by the site itself.
      expect(store).toBeInstanceOf(LocalStorage);
      return;
    }
    const got = await fetch(link);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-disposition')).toBe('attachment; filename="a.ttf"');
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(bytes);
  });

  test('a presigned upload is bound to its size, type and signature', async () => {
    const key = `${INCOMING_PREFIX}/7-${randomUUID()}/upload.ttf`;
    const ticket = await store.presignPut(key, { size: 5, type: 'font/ttf', expiresSeconds: 60, now: new Date() });
    // The size and type are signed, so a server that checks signatures refuses any other.
    const signed = new URL(ticket.url, 'http://site').searchParams.get('X-Amz-SignedHeaders')?.split(';');
    expect(signed).toEqual(expect.arrayContaining(['content-length', 'content-type']));
    if (!checksSignatures) return;
    const longer = await send(ticket.url, { method: 'PUT', headers: { 'content-type': 'font/ttf' }, body: 'abcdef' });
    expect(longer.status).toBe(403);
    const forged = ticket.url.replace(/X-Amz-Signature=[0-9a-f]{8}/, 'X-Amz-Signature=00000000');
    const bad = await send(forged, { method: 'PUT', headers: ticket.headers, body: 'abcde' });
    expect(bad.status).toBe(403);
    expect(await store.stat(key)).toBeUndefined();
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

describe('LocalStorage', () => {
  let store: LocalStorage;
  beforeEach(() => {
    store = new LocalStorage(root);
  });

  test('writes files under its folder and leaves no temporary file behind, also after a failed write', async () => {
    await store.put('fonts/a/b.ttf', new TextEncoder().encode('hello'));
    expect(fs.readFileSync(path.join(root, 'fonts/a/b.ttf'), 'utf8')).toBe('hello');
    await expect(
      store.put(
        'fonts/a/b.ttf',
        Readable.from(
          (async function* () {
            yield Buffer.from('partial');
            throw new Error('connection lost');
          })(),
        ),
      ),
    ).rejects.toThrow('connection lost');
    expect(fs.readdirSync(path.join(root, '.tmp'))).toEqual([]);
  });

  test('returns the public path /files/<key>', () => {
    expect(store.url('fonts/noto-sans-sc/NotoSansSC_400Regular.ttf')).toBe(
      '/files/fonts/noto-sans-sc/NotoSansSC_400Regular.ttf',
    );
  });
});

describe('storage', () => {
  test('returns a local storage under DATA_DIR/storage that follows DATA_DIR', async () => {
    await storage().put('probe/a.txt', new Uint8Array([1]), { hot: true });
    expect(fs.existsSync(path.join(root, 'storage', 'probe', 'a.txt'))).toBe(true);
    expect(storage()).toBe(storage());
  });

  test('returns the bucket of STORAGE_URL, keys under its folder, when it is set', async () => {
    const prefix = `site-${randomUUID()}`;
    Object.assign(process.env, s3.env(prefix));
    resetEnv();
    await storage().put('probe/a.txt', new TextEncoder().encode('in the bucket'));
    expect(fs.existsSync(path.join(root, 'storage', 'probe', 'a.txt'))).toBe(false);
    const object = await new S3Storage(s3.config(prefix)).get('probe/a.txt');
    expect(object && (await text(object.body))).toBe('in the bucket');
  });

  test.each([
    ['path-style', 'true', 'http://127.0.0.1:9000', 'http://127.0.0.1:9000'],
    ['virtual-host', 'false', 'https://oss-cn-hangzhou.aliyuncs.com', 'https://fonts.oss-cn-hangzhou.aliyuncs.com'],
  ])('lets the pages upload to a %s bucket (connect-src)', async (_style, pathStyle, endpoint, origin) => {
    Object.assign(process.env, {
      STORAGE_URL: 's3://fonts/site',
      S3_ENDPOINT: endpoint,
      S3_FORCE_PATH_STYLE: pathStyle,
    });
    resetEnv();
    const server = http.createServer(withSecurityHeaders((_req, res) => res.end('page')));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const policy = (await fetch(`http://127.0.0.1:${port}/`)).headers.get('content-security-policy') ?? '';
      expect(policy).toMatch(new RegExp(`connect-src 'self' ${origin.replace(/\./g, '\\.')}(;|$)`));
    } finally {
      server.close();
    }
  });

  test('hands browsers the bucket at its public address when the servers reach it at a private one', async () => {
    // The servers use the name of a private network (here localhost); browsers reach the same
    // service at S3_PUBLIC_URL (here 127.0.0.1), and every URL they are given is signed for it.
    const port = new URL(s3.endpoint).port;
    const prefix = `public-${randomUUID()}`;
    Object.assign(process.env, s3.env(prefix), {
      S3_ENDPOINT: `http://localhost:${port}`,
      S3_PUBLIC_URL: `http://127.0.0.1:${port}`,
    });
    resetEnv();
    const store = storage();
    const bytes = new TextEncoder().encode('uploaded by a browser');
    const now = new Date();
    const ticket = await store.presignPut('tools/incoming/x/font.ttf', {
      size: bytes.byteLength,
      type: 'font/ttf',
      expiresSeconds: 60,
      now,
    });
    expect(new URL(ticket.url).origin).toBe(`http://127.0.0.1:${port}`);
    expect(new URL(ticket.url).searchParams.get('X-Amz-SignedHeaders')).toContain('host');
    expect((await fetch(ticket.url, { method: 'PUT', headers: ticket.headers, body: bytes })).status).toBe(200);
    const link = await store.presignGet('tools/incoming/x/font.ttf', {
      disposition: 'attachment',
      type: 'font/ttf',
      expiresSeconds: 60,
      now,
    });
    expect(new URL(link ?? '').origin).toBe(`http://127.0.0.1:${port}`);
    expect(await (await fetch(link ?? '')).text()).toBe('uploaded by a browser');

    const server = http.createServer(withSecurityHeaders((_req, res) => res.end('page')));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port: site } = server.address() as AddressInfo;
      const policy = (await fetch(`http://127.0.0.1:${site}/`)).headers.get('content-security-policy') ?? '';
      expect(policy).toMatch(new RegExp(`connect-src 'self' http://127\\.0\\.0\\.1:${port}(;|$)`));
    } finally {
      server.close();
    }
  });
});
