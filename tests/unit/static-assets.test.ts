import fs from 'node:fs';
import fsPromises from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { pickEncoding } from '../../src/server/http/compressed.ts';
import { withCompressedAssets } from '../../src/server/http/static-assets.ts';

let clientDir: string;
let server: http.Server;
let base: string;
const script = `export const greeting = ${JSON.stringify('你好'.repeat(500))};\n`;
const page = `<!doctype html><title>字体格式转换</title><style>${'.tool{color:red}'.repeat(400)}</style>`;

/** A GET that keeps the body as sent (Node's fetch would decode it). */
function get(
  pathname: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${base}${pathname}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      })
      .on('error', reject);
  });
}

beforeAll(async () => {
  clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'static-assets-'));
  fs.mkdirSync(path.join(clientDir, '_astro'));
  fs.writeFileSync(path.join(clientDir, '_astro', 'page.AbC123.js'), script);
  fs.writeFileSync(path.join(clientDir, 'secret.js'), 'outside');
  fs.mkdirSync(path.join(clientDir, 'tools'));
  fs.writeFileSync(path.join(clientDir, 'tools', 'converter.html'), page);
  const fallback: http.RequestListener = (_req, res) => {
    res.writeHead(418, { 'Content-Type': 'text/plain' });
    res.end('fallback');
  };
  server = http.createServer(withCompressedAssets(fallback, clientDir));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(clientDir, { recursive: true, force: true });
});

describe('pickEncoding', () => {
  test.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['identity', undefined],
    ['', undefined],
  ])('answers %s with %s', (header, encoding) => {
    expect(pickEncoding(header)).toBe(encoding);
  });
});

describe('withCompressedAssets', () => {
  test('sends a fingerprinted script with Brotli, cached for a year', async () => {
    const answer = await get('/_astro/page.AbC123.js', { 'Accept-Encoding': 'gzip, br' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(answer.headers['vary']).toBe('Accept-Encoding');
    expect(zlib.brotliDecompressSync(answer.body).toString()).toBe(script);
    expect(answer.body.length).toBeLessThan(Buffer.byteLength(script) / 10);
  });

  test('sends gzip or the plain file to clients without Brotli', async () => {
    const gzipped = await get('/_astro/page.AbC123.js', { 'Accept-Encoding': 'gzip' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzipped.body).toString()).toBe(script);
    const plain = await get('/_astro/page.AbC123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
  });

  test('answers 304 to a client that has the file', async () => {
    const first = await get('/_astro/page.AbC123.js');
    const again = await get('/_astro/page.AbC123.js', { 'If-None-Match': String(first.headers['etag']) });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  test('sends a prerendered page with Brotli, to be revalidated on every visit', async () => {
    for (const pathname of ['/tools/converter', '/tools/converter.html', '/tools/converter?from=home']) {
      const answer = await get(pathname, { 'Accept-Encoding': 'gzip, br' });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBe('br');
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(answer.headers['cache-control']).toBe('public, max-age=0');
      expect(zlib.brotliDecompressSync(answer.body).toString()).toBe(page);
      expect(answer.body.length).toBeLessThan(Buffer.byteLength(page) / 10);
    }
  });

  test.each([
    '/_astro/missing.js',
    '/_astro/..%2Fsecret.js',
    '/_astro/%E0%A4%A.js',
    '/secret.js',
    '/',
    '/tools/missing',
    '/tools/..%2F..%2Fetc/passwd',
    '/tools//converter',
  ])('leaves %s to the next handler', async (pathname) => {
    const answer = await get(pathname, { 'Accept-Encoding': 'br' });
    expect(answer.status).toBe(418);
  });

  test('reads the disk only for files the build wrote: pages and API paths go on untouched', async () => {
    // Every SSR page and API path has the shape of a prerendered page; none may wait on the disk.
    const readFile = vi.spyOn(fsPromises, 'readFile');
    try {
      for (const pathname of ['/font', '/font/noto-sans-sc', '/web/api/fontOverride/getFontList', '/tools/missing']) {
        expect((await get(pathname)).status).toBe(418);
      }
      expect(readFile).not.toHaveBeenCalled();
    } finally {
      readFile.mockRestore();
    }
  });

  test('serves the build it started with: a file written later goes on to the next handler', async () => {
    fs.writeFileSync(path.join(clientDir, 'tools', 'later.html'), page);
    fs.writeFileSync(path.join(clientDir, '_astro', 'later.XyZ789.js'), script);
    expect((await get('/tools/later')).status).toBe(418);
    expect((await get('/_astro/later.XyZ789.js')).status).toBe(418);
  });
});
