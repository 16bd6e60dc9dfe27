import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { resetEnv } from '../../src/server/env.ts';
import { storage } from '../../src/server/storage/index.ts';
import { fileRoutes } from '../../src/server/storage/routes.ts';
import { routesApp } from '../helpers/font-library.ts';

describe('GET /files/<key> with Range', () => {
  const saved = { ...process.env };
  const bytes = new Uint8Array(Array.from({ length: 1000 }, (_, i) => i % 251));
  let app: Hono;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'range-'));
    Object.assign(process.env, { DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    resetEnv();
    await storage().put('videos/clip.webm', bytes);
    app = routesApp((routes) => routes.route('/files', fileRoutes()));
  });
  afterAll(() => {
    process.env = saved;
    resetEnv();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const get = (range?: string, method = 'GET') =>
    app.request('/files/videos/clip.webm', { method, headers: range ? { range } : {} });

  test('the whole file: 200, the type, Accept-Ranges and a year of immutable caching', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('video/webm');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
  });

  test('a range: 206 with Content-Range and exactly those bytes', async () => {
    const res = await get('bytes=100-199');
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe('bytes 100-199/1000');
    expect(res.headers.get('content-length')).toBe('100');
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes.subarray(100, 200));
  });

  test('a suffix range and an open-ended one', async () => {
    const suffix = await get('bytes=-10');
    expect(suffix.headers.get('content-range')).toBe('bytes 990-999/1000');
    expect(new Uint8Array(await suffix.arrayBuffer())).toEqual(bytes.subarray(990));
    const open = await get('bytes=995-');
    expect(open.status).toBe(206);
    expect(new Uint8Array(await open.arrayBuffer())).toEqual(bytes.subarray(995));
  });

  test('a range beyond the end: 416 naming the size', async () => {
    const res = await get('bytes=1000-1100');
    expect(res.status).toBe(416);
    expect(res.headers.get('content-range')).toBe('bytes */1000');
  });

  test('HEAD of a range answers its headers without a body', async () => {
    const res = await get('bytes=0-9', 'HEAD');
    expect(res.status).toBe(206);
    expect(res.headers.get('content-length')).toBe('10');
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });

  test('If-Range naming another version gets the whole file', async () => {
    const res = await app.request('/files/videos/clip.webm', {
      headers: { range: 'bytes=0-9', 'if-range': 'Thu, 01 Jan 1970 00:00:00 GMT' },
    });
    expect(res.status).toBe(200);
    expect((await res.arrayBuffer()).byteLength).toBe(1000);
  });

  test('a range of an object held in memory (written hot) is cut from those bytes', async () => {
    await storage().put('subsets/hot.woff2', bytes, { hot: true, durable: false });
    const res = await app.request('/files/subsets/hot.woff2', { headers: { range: 'bytes=10-19' } });
    expect(res.status).toBe(206);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes.subarray(10, 20));
  });
});
