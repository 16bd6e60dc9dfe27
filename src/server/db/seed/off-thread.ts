import { FontFormatError, type FontMetadata } from '../../engine/metadata.ts';
import { BACKGROUND_WORK_NICE, lowPriorityWorker } from '../../engine/thread-priority.ts';
import { serverSource } from '../../paths.ts';
import type { FamilyFiles } from './font-sources.ts';

// The heavy parts of seeding a family (unpacking its package, describing each font) run in one
// worker thread (seed-worker.ts), started for a seeding run and stopped with it, so that the
// library's families can be added while the site answers requests.

/** What a font file says about itself, with its SHA-256, size, CRC-32 and the code points it maps. */
export interface DescribedFont {
  meta: FontMetadata;
  sha256: string;
  size: number;
  crc32: number;
  codePoints: Uint32Array;
}

/** A request to the seed worker. */
export type SeedRequest = { id: number } & SeedCall;
type SeedCall = { kind: 'extract'; tarball: string; destDir: string } | { kind: 'describe'; file: string };

/** The seed worker's answer. */
export type SeedReply =
  | { id: number; files: FamilyFiles; error?: undefined }
  | { id: number; described: DescribedFont; error?: undefined }
  | { id: number; error: string; formatError: boolean };

const WORKER_FILE = serverSource('db', 'seed', 'seed-worker.ts');

/** The seed worker of one seeding run: `close()` when the run ends. */
export class SeedThread {
  readonly #worker = lowPriorityWorker(WORKER_FILE, BACKGROUND_WORK_NICE);
  readonly #pending = new Map<number, { resolve(reply: SeedReply): void; reject(error: Error): void }>();
  #nextId = 1;

  constructor() {
    this.#worker.on('message', (reply: SeedReply) => {
      this.#pending.get(reply.id)?.resolve(reply);
      this.#pending.delete(reply.id);
    });
    this.#worker.on('error', (error) => this.#failAll(error));
    this.#worker.on('exit', () => this.#failAll(new Error('the seed worker stopped')));
  }

  #failAll(error: Error): void {
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }

  async #call(request: SeedCall): Promise<SeedReply> {
    const id = this.#nextId++;
    const reply = await new Promise<SeedReply>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ ...request, id });
    });
    if (reply.error !== undefined) throw reply.formatError ? new FontFormatError(reply.error) : new Error(reply.error);
    return reply;
  }

  /** Unpacks the fonts and licence of a package tarball into `destDir` and lists them. */
  async extract(tarball: string, destDir: string): Promise<FamilyFiles> {
    const reply = await this.#call({ kind: 'extract', tarball, destDir });
    if (!('files' in reply)) throw new Error('the seed worker answered without files');
    return reply.files;
  }

  /** Reads a font file's metadata, SHA-256, CRC-32 and cmap. */
  async describe(file: string): Promise<DescribedFont> {
    const reply = await this.#call({ kind: 'describe', file });
    if (!('described' in reply)) throw new Error('the seed worker answered without a description');
    return reply.described;
  }

  async close(): Promise<void> {
    this.#worker.removeAllListeners('exit');
    await this.#worker.terminate();
  }
}
