import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { presignUrl } from './presign.ts';
import {
  type GetOptions,
  type PresignedRequest,
  type PresignPutOptions,
  type PutOptions,
  publicPath,
  RangeNotSatisfiableError,
  resolveRange,
  type Storage,
  type StorageBody,
  type StorageObject,
  type StorageStat,
  validateKey,
} from './types.ts';
import { localUploadCredentials } from './upload-credentials.ts';

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** Flushes a directory entry so that a rename survives power loss; not every platform allows it. */
async function syncDirectory(dir: string): Promise<void> {
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await fsp.open(dir, 'r');
    await handle.sync();
  } catch {
    // Windows cannot open a directory for syncing; the rename is still atomic there.
  } finally {
    await handle?.close();
  }
}

/**
 * Keeps objects as files under one folder. Writes go to a temporary file inside the same folder
 * tree, are flushed to disk, then renamed over the target, so a crash leaves the old object or
 * the complete new one.
 */
export class LocalStorage implements Storage {
  /** The folder that holds the objects. */
  readonly root: string;
  readonly #tmpDir: string;
  /** Folders known to exist, so that a put (a preview writes two small files) does not make them again. */
  readonly #folders = new Set<string>();

  constructor(root: string) {
    this.root = path.resolve(root);
    // Keys cannot start a segment with '.', so this folder is out of their reach.
    this.#tmpDir = path.join(this.root, '.tmp');
  }

  #file(key: string): string {
    const file = path.join(this.root, ...validateKey(key).split('/'));
    // validateKey already rules out escapes; this guards against a future change to it.
    if (!file.startsWith(this.root + path.sep)) throw new Error(`Storage key escapes the root: ${key}`);
    return file;
  }

  async #makeFolders(folders: string[]): Promise<void> {
    const missing = folders.filter((folder) => !this.#folders.has(folder));
    await Promise.all(missing.map((folder) => fsp.mkdir(folder, { recursive: true })));
    for (const folder of missing) this.#folders.add(folder);
  }

  async put(key: string, body: StorageBody, { durable = true }: PutOptions = {}): Promise<StorageStat> {
    const target = this.#file(key);
    const folders = [path.dirname(target), this.#tmpDir];
    await this.#makeFolders(folders);
    const temp = path.join(this.#tmpDir, `${randomUUID()}.part`);
    try {
      if (body instanceof Uint8Array) {
        await fsp.writeFile(temp, body, { flag: 'wx', flush: durable });
      } else {
        const source = body instanceof ReadableStream ? Readable.fromWeb(body as never) : body;
        await pipeline(source, fs.createWriteStream(temp, { flags: 'wx', flush: durable }));
      }
      await fsp.rename(temp, target).catch(async (error: unknown) => {
        // The folder went since it was made (a tree deleted, an empty folder swept): make it again.
        if (!isMissing(error)) throw error;
        for (const folder of folders) this.#folders.delete(folder);
        await this.#makeFolders(folders);
        await fsp.rename(temp, target);
      });
    } catch (error) {
      await fsp.rm(temp, { force: true });
      throw error;
    }
    if (durable) await syncDirectory(path.dirname(target));
    const stat = await fsp.stat(target);
    return { size: stat.size, mtime: stat.mtime };
  }

  async get(key: string, { range }: GetOptions = {}): Promise<StorageObject | undefined> {
    let handle: fsp.FileHandle;
    try {
      handle = await fsp.open(this.#file(key), 'r');
    } catch (error) {
      if (isMissing(error) || (error as NodeJS.ErrnoException).code === 'EISDIR') return undefined;
      throw error;
    }
    // Stat the open handle, so size and bytes belong to the same file even if it is replaced meanwhile.
    const stat = await handle.stat();
    if (!stat.isFile()) {
      await handle.close();
      return undefined;
    }
    const object = { size: stat.size, mtime: stat.mtime };
    if (!range) return { ...object, body: handle.createReadStream() };
    const part = resolveRange(range, stat.size);
    if (!part) {
      await handle.close();
      throw new RangeNotSatisfiableError(stat.size);
    }
    return { ...object, range: part, body: handle.createReadStream({ start: part.start, end: part.end }) };
  }

  async stat(key: string): Promise<StorageStat | undefined> {
    try {
      const stat = await fsp.stat(this.#file(key));
      return stat.isFile() ? { size: stat.size, mtime: stat.mtime } : undefined;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.#file(key), { force: true });
  }

  async list(prefix: string): Promise<string[]> {
    const dir = this.#file(prefix);
    let entries: fs.Dirent[];
    try {
      entries = await fsp.readdir(dir, { recursive: true, withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
    return entries
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(this.root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
  }

  async deleteTree(prefix: string): Promise<void> {
    await fsp.rm(this.#file(prefix), { recursive: true, force: true });
  }

  url(key: string): string {
    return publicPath(key);
  }

  localFile(key: string): string {
    return this.#file(key);
  }

  /** A path on the site, checked by PUT /files/<key> (storage/routes.ts) with the site's own key. */
  async presignPut(key: string, { size, type, expiresSeconds, now }: PresignPutOptions): Promise<PresignedRequest> {
    const headers = { 'content-length': String(size), 'content-type': type };
    const url = presignUrl(localUploadCredentials(), {
      method: 'PUT',
      origin: '',
      path: publicPath(key),
      headers,
      expiresSeconds,
      now,
    });
    return { url, headers };
  }

  /** The files are on this machine: the site streams them itself. */
  async presignGet(): Promise<undefined> {
    return undefined;
  }

  async sweepLeftovers(before: Date, prefix: string): Promise<number> {
    let removed = 0;
    const cutoff = before.getTime();
    // Partial writes: a put streams into .tmp and renames; a process killed mid-stream leaves the part.
    for (const entry of await fsp.readdir(this.#tmpDir, { withFileTypes: true }).catch(() => [])) {
      if (!entry.isFile() || !entry.name.endsWith('.part')) continue;
      const file = path.join(this.#tmpDir, entry.name);
      const stat = await fsp.stat(file).catch(() => undefined);
      if (stat && stat.mtimeMs < cutoff) {
        await fsp.rm(file, { force: true });
        removed++;
      }
    }
    // Empty folders under the area, deepest first, so a folder emptied by this sweep goes too.
    const walk = async (dir: string): Promise<boolean> => {
      // Its time is read before its children go: removing them touches the folder.
      const before = await fsp.stat(dir).catch(() => undefined);
      const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(() => undefined);
      if (!entries) return false;
      let empty = true;
      for (const entry of entries) {
        if (entry.isDirectory() && !(await walk(path.join(dir, entry.name)))) empty = false;
        else if (!entry.isDirectory()) empty = false;
      }
      if (!empty || dir === area) return false;
      if (!before || before.mtimeMs >= cutoff) return false;
      await fsp.rmdir(dir).catch(() => undefined);
      removed++;
      return true;
    };
    const area = this.#file(prefix);
    await walk(area);
    return removed;
  }
}
