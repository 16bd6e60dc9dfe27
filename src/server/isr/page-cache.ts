import { createHash, randomUUID } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { LRUCache } from 'lru-cache';
import { gaugeCache } from '../engine/memory-gauges.ts';
import { env } from '../env.ts';
import { type CompressedBody, compressBody } from '../http/compressed.ts';
import { log } from '../log.ts';

/** A rendered page kept for reuse, with its compressed copies. */
export interface CachedPage extends CompressedBody {
  /** pathname + normalised query, e.g. '/news?current=2'. */
  key: string;
  pathname: string;
  contentType: string;
  /** When the page was rendered (ms since the epoch). */
  storedAt: number;
}

interface DiskRecord {
  key: string;
  pathname: string;
  contentType: string;
  etag: string;
  storedAt: number;
  body: string;
}

/** A token taken before rendering; a page rendered across a purge of its path is not stored. */
export interface RenderTicket {
  pathname: string;
  generation: string;
}

const MEMORY_LIMIT_BYTES = 64 * 1024 * 1024;
/**
 * Query variants of one path held at once (filters, pages, sample lines of the font library).
 * Past it a new variant is rendered and sent but not kept, so that made-up queries cannot push
 * out the pages people read.
 */
export const MAX_VARIANTS_PER_PATH = 200;

/**
 * Rendered ISR pages in memory (least recently used dropped past 64 MB) and on disk under
 * `${DATA_DIR}/cache/pages/<encoded pathname>/<hash of query>.json`, so a restart starts warm.
 * Purging works by pathname: every query variant of that path goes at once.
 */
export class PageCache {
  readonly dir: string;
  private readonly variants = new Map<string, Set<string>>();
  private readonly memory = new LRUCache<string, CachedPage>({
    maxSize: MEMORY_LIMIT_BYTES,
    sizeCalculation: sizeOf,
    dispose: (page, key) => {
      const keys = this.variants.get(page.pathname);
      keys?.delete(key);
      if (keys?.size === 0) this.variants.delete(page.pathname);
    },
  });
  private globalGeneration = 0;
  private readonly pathGenerations = new Map<string, number>();

  constructor(dir: string) {
    this.dir = dir;
    gaugeCache('pages', this.memory);
  }

  private fileOf(pathname: string, key: string): string {
    const query = createHash('sha1').update(key).digest('hex').slice(0, 20);
    return path.join(this.dir, encodeURIComponent(pathname), `${query}.json`);
  }

  /** Keeps a page in memory; false when its path already holds as many variants as it may. */
  private remember(page: CachedPage): boolean {
    const keys = this.variants.get(page.pathname) ?? new Set<string>();
    if (!keys.has(page.key) && keys.size >= MAX_VARIANTS_PER_PATH) return false;
    this.memory.set(page.key, page);
    keys.add(page.key);
    this.variants.set(page.pathname, keys);
    return true;
  }

  /**
   * The stored page for a key, from memory or else from disk (unless `persist` is false: such
   * pages are never written there); undefined when there is none.
   */
  async get(pathname: string, key: string, persist = true): Promise<CachedPage | undefined> {
    // get() also refreshes its place in the LRU order.
    const inMemory = this.memory.get(key);
    if (inMemory || !persist) return inMemory;
    const ticket = this.ticket(pathname);
    const text = await fsp.readFile(this.fileOf(pathname, key), 'utf8').catch(() => undefined);
    if (!text) return undefined;
    try {
      const record = JSON.parse(text) as DiskRecord;
      if (record.key !== key) return undefined;
      const page = await compressPage(record);
      // A purge while the file was read wins.
      if (this.ticket(pathname).generation !== ticket.generation) return undefined;
      this.remember(page);
      return page;
    } catch {
      return undefined;
    }
  }

  /** The page for a key if memory holds it, without touching the disk or the LRU order (the fast path). */
  peek(key: string): CachedPage | undefined {
    return this.memory.peek(key);
  }

  /** Takes a ticket before rendering `pathname`. */
  ticket(pathname: string): RenderTicket {
    return { pathname, generation: `${this.globalGeneration}:${this.pathGenerations.get(pathname) ?? 0}` };
  }

  /**
   * Keeps a rendered page unless its path was purged since the ticket was taken; answers the page
   * with its compressed copies (also when it was not kept for want of room). `persist` false keeps
   * it in memory only.
   */
  async put(
    ticket: RenderTicket,
    entry: { key: string; contentType: string; body: Buffer; persist?: boolean },
  ): Promise<CachedPage | undefined> {
    const record: DiskRecord = {
      key: entry.key,
      pathname: ticket.pathname,
      contentType: entry.contentType,
      etag: `"${createHash('sha1').update(entry.body).digest('base64url').slice(0, 22)}"`,
      storedAt: Date.now(),
      body: entry.body.toString('utf8'),
    };
    const page = await compressPage(record);
    if (this.ticket(ticket.pathname).generation !== ticket.generation) return undefined;
    if (!this.remember(page) || entry.persist === false) return page;
    const file = this.fileOf(ticket.pathname, entry.key);
    const temporary = `${file}.${randomUUID()}.tmp`;
    try {
      await fsp.mkdir(path.dirname(file), { recursive: true });
      await fsp.writeFile(temporary, JSON.stringify(record));
      // Checked again: a purge during the write must not leave the old page on disk.
      if (this.ticket(ticket.pathname).generation !== ticket.generation) {
        await fsp.rm(temporary, { force: true });
        return undefined;
      }
      await fsp.rename(temporary, file);
    } catch (error) {
      await fsp.rm(temporary, { force: true });
      log().warn({ err: error, key: entry.key }, 'page could not be written to the disk cache');
    }
    return page;
  }

  /** Forgets every variant of the given paths, in memory and on disk. */
  async purge(pathnames: Iterable<string>): Promise<void> {
    const targets = new Set(pathnames);
    for (const pathname of targets) this.pathGenerations.set(pathname, (this.pathGenerations.get(pathname) ?? 0) + 1);
    for (const [key, page] of [...this.memory.entries()]) {
      if (targets.has(page.pathname)) this.memory.delete(key);
    }
    await Promise.all(
      [...targets].map((pathname) =>
        fsp.rm(path.join(this.dir, encodeURIComponent(pathname)), { recursive: true, force: true }),
      ),
    );
  }

  /**
   * Forgets every cached path the predicate picks, in memory and on disk. Renders in flight for any
   * path are not stored either, since a path not cached yet may be among the ones meant.
   */
  async purgeWhere(picks: (pathname: string) => boolean): Promise<void> {
    this.globalGeneration++;
    const pathnames = new Set([...this.memory.values()].map((page) => page.pathname));
    for (const name of await fsp.readdir(this.dir).catch(() => [] as string[])) {
      if (!name.includes('.purged-')) pathnames.add(decodeURIComponent(name));
    }
    await this.purge([...pathnames].filter(picks));
  }

  /** Forgets every page (after a bulk change such as seeding or an editor's full rebuild). */
  async purgeAll(): Promise<void> {
    this.globalGeneration++;
    this.memory.clear();
    // Moved aside first so that new pages can be written while the old ones are deleted.
    const aside = `${this.dir}.purged-${randomUUID()}`;
    await fsp.rename(this.dir, aside).catch(() => undefined);
    await fsp.rm(aside, { recursive: true, force: true });
  }

  /**
   * Forgets every page rendered by another build of the site. Pages name the build's fingerprinted
   * scripts and styles, which a new build replaces, so a warm disk cache from before a deploy would
   * otherwise serve pages whose assets no longer exist. The build's id is kept beside the pages.
   */
  async keepOnlyBuild(buildId: string): Promise<void> {
    const file = `${this.dir}.build`;
    const previous = await fsp.readFile(file, 'utf8').catch(() => undefined);
    if (previous === buildId) return;
    await this.purgeAll();
    await fsp.mkdir(path.dirname(file), { recursive: true });
    // Written beside and renamed over: a data folder copied by hard links (`cp -al`) shares the old
    // file with its source, which a write in place would change too.
    const fresh = `${file}.${process.pid}.tmp`;
    await fsp.writeFile(fresh, buildId);
    await fsp.rename(fresh, file);
  }

  /** How many pages memory holds (for tests and the benchmark). */
  get size(): number {
    return this.memory.size;
  }
}

function sizeOf(page: CachedPage): number {
  return page.body.length + page.br.length + page.gzip.length;
}

async function compressPage(record: DiskRecord): Promise<CachedPage> {
  const compressed = await compressBody(Buffer.from(record.body, 'utf8'));
  return { ...record, ...compressed, etag: record.etag };
}

// One cache per process: the Astro bundle (pages, API) and scripts/start.ts (seeding) each hold
// a copy of this module, and both must purge the same pages.
const SLOT = Symbol.for('font-alliance.page-cache');

/** The process-wide page cache under `${DATA_DIR}/cache/pages`. */
export function pageCache(): PageCache {
  const slot = globalThis as { [SLOT]?: PageCache };
  const dir = path.join(env().dataDir, 'cache', 'pages');
  if (slot[SLOT]?.dir !== dir) slot[SLOT] = new PageCache(dir);
  return slot[SLOT];
}
