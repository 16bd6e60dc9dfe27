import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as tar from 'tar';
import xz from 'xz-decompress';
import type { DebianSource } from './font-catalogue-types.ts';
import { ensureDownload, type FamilyFiles, FONT_FILE, listFiles } from './font-sources.ts';

// xz-decompress (MIT, httptoolkit) is XZ Embedded compiled to WebAssembly: no native build to break
// across Node versions, a web ReadableStream that decodes chunk by chunk (never the whole archive in
// memory) and few dependencies; lzma-native needs a native addon. Its webpack bundle is CommonJS, so
// Node sees only a default export.
const { XzReadableStream } = xz;

// Families that only Debian packages ship: the .deb is fetched from DEBIAN_MIRROR into the same
// cache as the npm tarballs, checked against the SHA-256 of Debian's Packages index, and its fonts
// and copyright file are unpacked from data.tar.xz.

/** The URL of a package's .deb on a Debian mirror. */
export function debUrl(mirror: string, source: DebianSource): string {
  return `${mirror.replace(/\/+$/, '')}/${source.filename}`;
}

/** Where the cache keeps a .deb: beside the npm tarballs, named as the pool names it. */
export function debCachePath(cacheDir: string, source: DebianSource): string {
  return path.join(cacheDir, `debian+${path.posix.basename(source.filename)}`);
}

/** The SHA-256 of the Packages index (hex) as the SRI value the download checks. */
export function debIntegrity(source: DebianSource): string {
  if (!/^[0-9a-f]{64}$/i.test(source.sha256)) throw new Error(`${source.package}: SHA-256 ${source.sha256} is not hex`);
  return `sha256-${Buffer.from(source.sha256, 'hex').toString('base64')}`;
}

/** Makes sure the cache holds the .deb with the pinned SHA-256 (a copy that differs is fetched again). */
export function ensureDeb(options: {
  source: DebianSource;
  cacheDir: string;
  mirror: string;
  onBytes?: (n: number) => void;
  signal?: AbortSignal | undefined;
}): Promise<{ file: string; downloaded: boolean }> {
  return ensureDownload({
    url: debUrl(options.mirror, options.source),
    file: debCachePath(options.cacheDir, options.source),
    integrity: debIntegrity(options.source),
    onBytes: options.onBytes,
    signal: options.signal,
  });
}

/** One member of an `ar` archive: its name and where its bytes are in the file. */
export interface ArMember {
  name: string;
  offset: number;
  size: number;
}

const AR_MAGIC = '!<arch>\n';
const AR_HEADER = 60;

/**
 * Lists the members of an `ar` archive (a .deb is one: debian-binary, control.tar.*, data.tar.*).
 * Written here rather than taken from npm: the format is a magic line and 60-byte text headers, and
 * reading only the headers lets data.tar.xz be streamed from its offset, where the npm `ar` readers
 * load the whole archive into memory or are unmaintained.
 */
export async function readArMembers(file: string): Promise<ArMember[]> {
  const handle = await fsp.open(file, 'r');
  try {
    const { size: fileSize } = await handle.stat();
    const magic = Buffer.alloc(AR_MAGIC.length);
    await handle.read(magic, 0, magic.length, 0);
    if (magic.toString('latin1') !== AR_MAGIC) throw new Error(`${path.basename(file)} is not an ar archive`);
    const members: ArMember[] = [];
    const header = Buffer.alloc(AR_HEADER);
    for (let offset = AR_MAGIC.length; offset < fileSize; ) {
      const { bytesRead } = await handle.read(header, 0, AR_HEADER, offset);
      if (bytesRead < AR_HEADER || header.toString('latin1', 58, 60) !== '`\n') {
        throw new Error(`${path.basename(file)}: broken ar header at byte ${offset}`);
      }
      // GNU ar ends names with '/'; BSD long names ('#1/…') do not occur in .debs.
      const name = header.toString('latin1', 0, 16).trimEnd().replace(/\/$/, '');
      const sizeText = header.toString('latin1', 48, 58).trim();
      const size = Number(sizeText);
      const start = offset + AR_HEADER;
      if (!/^\d+$/.test(sizeText) || start + size > fileSize) {
        throw new Error(`${path.basename(file)}: member ${name} runs past the end of the archive`);
      }
      members.push({ name, offset: start, size });
      // Members start on even offsets.
      offset = start + size + (size % 2);
    }
    return members;
  } finally {
    await handle.close();
  }
}

/**
 * Unpacks the fonts (TTFs under usr/share/fonts) and the copyright file of a .deb into `destDir`:
 * data.tar.xz is streamed from its place in the archive through the xz decoder into tar, which
 * refuses absolute paths and '..'. The copyright file is the family's licence text.
 */
export async function extractDebianFiles(deb: string, destDir: string, source: DebianSource): Promise<FamilyFiles> {
  const members = await readArMembers(deb);
  if (members[0]?.name !== 'debian-binary') throw new Error(`${path.basename(deb)} is not a Debian package`);
  const data = members.find((member) => member.name.startsWith('data.tar'));
  if (data?.name !== 'data.tar.xz')
    throw new Error(`${path.basename(deb)} has no data.tar.xz (${data?.name ?? 'none'})`);
  const copyright = `usr/share/doc/${source.package}/copyright`;
  const wanted = (entryPath: string) => {
    const name = entryPath.replace(/^\.\//, '');
    return (name.startsWith('usr/share/fonts/') && FONT_FILE.test(name)) || name === copyright;
  };
  await fsp.mkdir(destDir, { recursive: true });
  const compressed = fs.createReadStream(deb, { start: data.offset, end: data.offset + data.size - 1 });
  const tarStream = new XzReadableStream(Readable.toWeb(compressed) as ReadableStream<Uint8Array>);
  await pipeline(Readable.fromWeb(tarStream as never), tar.x({ cwd: destDir, strict: true, filter: wanted }));
  const files = await listFiles(destDir);
  const fonts = files
    .filter((file) => FONT_FILE.test(file))
    .sort((a, b) => path.basename(a).localeCompare(path.basename(b)));
  if (fonts.length === 0) throw new Error(`${source.package} ships no TTF under usr/share/fonts`);
  const licenseText = await fsp.readFile(path.join(destDir, copyright), 'utf8').catch(() => undefined);
  if (!licenseText) throw new Error(`${source.package} ships no ${copyright}`);
  return { fonts, licenseText };
}
