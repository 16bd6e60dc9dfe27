import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import fs from 'node:fs/promises';
import type http from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { pickEncoding } from './compressed.ts';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Where the build writes its fingerprinted assets, under the client folder and in URLs. */
export const ASSET_PREFIX = '/_astro/';

// A file's name changes whenever its content does, so browsers may keep it for a year unasked.
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Text assets worth compressing; images and fonts are compressed already. */
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.map': 'application/json; charset=utf-8',
};

interface Asset {
  type: string;
  etag: string;
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

async function loadAsset(file: string, type: string): Promise<Asset | undefined> {
  const identity = await fs.readFile(file).catch(() => undefined);
  if (!identity) return undefined;
  const [br, gz] = await Promise.all([
    brotli(identity, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      },
    }),
    gzip(identity, { level: 9 }),
  ]);
  const etag = `"${createHash('sha256').update(identity).digest('base64url').slice(0, 22)}"`;
  return { type, etag, identity, br, gzip: gz };
}

/** The absolute paths of every file under `dir` (none when it is missing). */
function filesIn(dir: string): Set<string> {
  try {
    return new Set(
      readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => path.join(entry.parentPath, entry.name)),
    );
  } catch {
    return new Set();
  }
}

/** Prerendered pages may change with each build, so browsers ask again, with the ETag, every time. */
const REVALIDATE = 'public, max-age=0';
const HTML = 'text/html; charset=utf-8';

/**
 * The file and headers a request names: a fingerprinted text asset (`/_astro/*.js`, `.css` …), kept
 * a year, or a prerendered page (`/help`, `/tools/converter`, and the same with `.html`), revalidated
 * each time. Undefined for anything else.
 */
function assetOf(
  url: string,
  clientDir: string,
  assetRoot: string,
): { file: string; type: string; cache: string } | undefined {
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.split('?')[0] ?? '');
  } catch {
    return undefined;
  }
  if (pathname.startsWith(ASSET_PREFIX)) {
    const type = TYPES[path.extname(pathname)];
    const file = path.resolve(assetRoot, pathname.slice(ASSET_PREFIX.length));
    return type && path.dirname(file) === assetRoot ? { file, type, cache: IMMUTABLE } : undefined;
  }
  // A page's path has no dots but its `.html`; the file must lie inside the client folder.
  const page = pathname.endsWith('.html') ? pathname : `${pathname}.html`;
  if (pathname === '/' || !/^\/[A-Za-z0-9_/-]+\.html$/.test(page) || page.includes('//')) return undefined;
  const file = path.resolve(clientDir, page.slice(1));
  return file.startsWith(`${clientDir}${path.sep}`) ? { file, type: HTML, cache: REVALIDATE } : undefined;
}

/**
 * Serves the build's fingerprinted text assets (`/_astro/*.js`, `.css` …) and its prerendered pages
 * (help, licence, agreements, tool shells) compressed, in front of the adapter's static handler,
 * which sends them uncompressed with a zero max-age. Each file is compressed once (Brotli at its
 * best quality, and gzip), on its first request, and kept in memory: they are few and small, and
 * unchanged until the next build. Anything else, including a missing file, goes on to `handler`.
 *
 * The folder is listed once, here: the server serves the build it started with. Every page and API
 * path also has the shape of a prerendered page (`/font` could be `font.html`), so asking the disk
 * on each request sent every cached read through a failed `open` on libuv's thread pool, where it
 * waited behind compression and font reads (the cached reads' p99 doubled while the pool was busy).
 */
export function withCompressedAssets(handler: http.RequestListener, clientDir: string): http.RequestListener {
  const client = path.resolve(clientDir);
  const root = path.resolve(client, ASSET_PREFIX.slice(1));
  const files = filesIn(client);
  const assets = new Map<string, Promise<Asset | undefined>>();
  return (req, res) => {
    const url = req.url ?? '/';
    if (req.method !== 'GET' && req.method !== 'HEAD') return handler(req, res);
    const named = assetOf(url, client, root);
    if (!named || !files.has(named.file)) return handler(req, res);
    const { file, type, cache } = named;
    let asset = assets.get(file);
    if (!asset) {
      asset = loadAsset(file, type);
      assets.set(file, asset);
    }
    asset.then(
      (found) => {
        if (!found) return handler(req, res);
        const headers: Record<string, string> = {
          'Content-Type': found.type,
          'Cache-Control': cache,
          ETag: found.etag,
          Vary: 'Accept-Encoding',
        };
        if (req.headers['if-none-match'] === found.etag) {
          res.writeHead(304, headers);
          res.end();
          return;
        }
        const encoding = pickEncoding(req.headers['accept-encoding']);
        const body = encoding ? found[encoding] : found.identity;
        if (encoding) headers['Content-Encoding'] = encoding;
        headers['Content-Length'] = String(body.length);
        res.writeHead(200, headers);
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      () => handler(req, res),
    );
  };
}
