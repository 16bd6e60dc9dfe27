import type { Worker } from 'node:worker_threads';
import type { CharacterSuggestion, FoundGlyphs, GlyphBox } from '../../../contract/identify.ts';
import { shareFontRegistry } from '../../engine/text/font-registry.ts';
import { lowPriorityWorker, PROMPT_WORK_NICE } from '../../engine/thread-priority.ts';
import { serverSource } from '../../paths.ts';
import { ToolTaskError } from '../pool.ts';
import type { FaceFile } from './references.ts';
import type { MatchTask, MatchTaskResult, PictureRef } from './tasks.ts';

// The main thread's side of the identification worker (worker.ts). One worker per process holds the
// reader's model and writes the reference index, so the process holds each once (a worker of the
// tools pool each used to load its own model and open its own copy of every face). Requests wait
// here and go to the worker one at a time, clients taking turns; a request that runs too long
// stops the worker, which the next request starts again (the index on disk keeps what was drawn).

/** What the worker is asked to do. */
export type IdentifyTask =
  /**
   * `judges`: the faces that judge which form of a character a glyph shows (script-faces.ts);
   * `faces`: the library's, among which the readings' leading face is found (leading-face.ts).
   */
  | { kind: 'glyphs'; picture: PictureRef; judges: FaceFile[]; faces: FaceFile[] }
  | { kind: 'characters'; picture: PictureRef; boxes: GlyphBox[]; judges: FaceFile[]; faces: FaceFile[] }
  | ({ kind: 'match' } & MatchTask)
  /** The library's faces: the worker prepares their references in the background. */
  | { kind: 'prepare'; faces: FaceFile[] }
  /** Waits until the background preparation is through. */
  | { kind: 'prepared' };

/** The answer of each kind of task. */
export interface IdentifyResults {
  glyphs: FoundGlyphs;
  characters: CharacterSuggestion[][];
  match: MatchTaskResult;
  prepare: { started: boolean };
  prepared: { recorded: number; wanted: number };
}

export interface IdentifyRequest {
  id: number;
  task: IdentifyTask;
}

export type IdentifyReply =
  | { id: number; type: 'done'; result: unknown }
  | { id: number; type: 'failed'; message: string; detail: string; userFacing: boolean };

interface Pending {
  request: IdentifyRequest;
  client: string;
  timeoutMs: number;
  resolve(result: unknown): void;
  reject(error: Error): void;
}

const WORKER_FILE = serverSource('tools', 'identify', 'worker.ts');
/**
 * A worker with nothing to do for this long is stopped, which gives back the reader's model and the
 * worker's heap (about 150 MB); the next request starts it again in under a second.
 */
const IDLE_STOP_MS = 10 * 60_000;
/**
 * A worker that has only prepared references (at start, or when a family arrives) and answered no
 * request holds no model, and the index it wrote is on disk: it is stopped after this much quiet,
 * which gives back its heap and what its drawing left with the allocator and Skia (60–100 MB).
 */
const PREPARED_STOP_MS = 15_000;

/** The identification worker of this process and the requests waiting for it. */
export class IdentifyHost {
  #worker: Worker | undefined;
  readonly #queue: Pending[] = [];
  #current: Pending | undefined;
  #timer: NodeJS.Timeout | undefined;
  /** Messages that are not requests (preparation), answered whenever the worker gets to them. */
  readonly #side = new Map<number, Pending>();
  readonly #served = new Map<string, number>();
  #turns = 0;
  #nextId = 1;
  #lastFaces: FaceFile[] | undefined;
  #preparing = false;
  #idleTimer: NodeJS.Timeout | undefined;
  #closed = false;
  /** Requests the current worker has run: none means it holds no reader's model. */
  #runByWorker = 0;

  /** Runs a request in the worker; the person's bad input rejects with a userFacing ToolTaskError. */
  run<K extends 'glyphs' | 'characters' | 'match'>(
    task: Extract<IdentifyTask, { kind: K }>,
    options: { client: string; timeoutMs: number },
  ): Promise<IdentifyResults[K]> {
    if (this.#closed) return Promise.reject(new Error('identification is closed'));
    return new Promise((resolve, reject) => {
      this.#queue.push({
        request: { id: this.#nextId++, task },
        client: options.client,
        timeoutMs: options.timeoutMs,
        resolve: resolve as (result: unknown) => void,
        reject,
      });
      this.#dispatch();
    });
  }

  /** Requests waiting (not running). */
  waiting(): number {
    return this.#queue.length;
  }

  /** Tells the worker the library's faces, so it prepares their references in the background. */
  prepare(faces: FaceFile[]): void {
    this.#lastFaces = faces;
    this.#preparing = true;
    this.#post({ kind: 'prepare', faces })
      .then(() => this.prepared())
      .then(
        () => {
          this.#preparing = false;
          this.#idle();
        },
        () => {},
      );
  }

  /** Stops the worker once nothing has been asked of it for a while and nothing is being prepared. */
  #idle(): void {
    clearTimeout(this.#idleTimer);
    if (this.#current || this.#queue.length > 0 || this.#preparing || !this.#worker) return;
    this.#idleTimer = setTimeout(
      () => {
        if (this.#current || this.#queue.length > 0 || this.#preparing || this.#side.size > 0) return;
        const worker = this.#worker;
        this.#worker = undefined;
        worker?.removeAllListeners('exit');
        void worker?.terminate();
      },
      this.#runByWorker === 0 ? PREPARED_STOP_MS : IDLE_STOP_MS,
    );
    this.#idleTimer.unref();
  }

  /**
   * Prepares again when the library's faces changed since the last preparation (a family added
   * while the site runs); does nothing where no preparation was ever asked for (tests, tools nodes).
   */
  refresh(faces: FaceFile[]): void {
    const last = this.#lastFaces;
    if (!last) return;
    const known = new Set(last.map((face) => face.sha256));
    if (faces.length === last.length && faces.every((face) => known.has(face.sha256))) return;
    this.prepare(faces);
  }

  /** Settles when the background preparation is through, with how many references it holds. */
  prepared(): Promise<IdentifyResults['prepared']> {
    return this.#post({ kind: 'prepared' }) as Promise<IdentifyResults['prepared']>;
  }

  #post(task: IdentifyTask): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const pending: Pending = {
        request: { id: this.#nextId++, task },
        client: '',
        timeoutMs: 0,
        resolve,
        reject,
      };
      this.#side.set(pending.request.id, pending);
      this.#spawned().postMessage(pending.request);
    });
  }

  #spawned(): Worker {
    if (this.#worker) return this.#worker;
    // The worker draws text: it shares the process's one register of drawing faces.
    shareFontRegistry();
    const worker = lowPriorityWorker(WORKER_FILE, PROMPT_WORK_NICE);
    worker.unref();
    worker.on('message', (reply: IdentifyReply) => this.#answer(reply));
    worker.on('error', (error) => this.#fail(new ToolTaskError(error.message, false, error.stack)));
    worker.on('exit', (code) => {
      if (this.#worker === worker) this.#fail(new ToolTaskError(`identification worker exited with ${code}`, false));
    });
    this.#worker = worker;
    this.#runByWorker = 0;
    // A worker started again picks up the background preparation where the index on disk left it.
    if (this.#lastFaces) {
      const faces = this.#lastFaces;
      queueMicrotask(() => this.#post({ kind: 'prepare', faces }).catch(() => {}));
    }
    return worker;
  }

  #dispatch(): void {
    if (this.#current || this.#closed) return;
    const next = this.#fairest();
    if (!next) {
      this.#idle();
      return;
    }
    clearTimeout(this.#idleTimer);
    this.#queue.splice(this.#queue.indexOf(next), 1);
    this.#served.set(next.client, ++this.#turns);
    if (this.#served.size > 10_000) this.#served.delete(this.#served.keys().next().value as string);
    this.#current = next;
    this.#timer = setTimeout(() => {
      this.#fail(new ToolTaskError('识别时间过长，已停止；请裁剪出较少的文字后再试', true, 'identify task timed out'));
    }, next.timeoutMs);
    this.#timer.unref();
    const worker = this.#spawned();
    this.#runByWorker++;
    worker.postMessage(next.request);
  }

  /** The waiting request whose client was served longest ago, oldest first among equals. */
  #fairest(): Pending | undefined {
    let best: Pending | undefined;
    let bestServed = Number.POSITIVE_INFINITY;
    for (const pending of this.#queue) {
      const served = this.#served.get(pending.client) ?? 0;
      if (served < bestServed) {
        best = pending;
        bestServed = served;
      }
    }
    return best;
  }

  #answer(reply: IdentifyReply): void {
    const side = this.#side.get(reply.id);
    const pending = side ?? (this.#current?.request.id === reply.id ? this.#current : undefined);
    if (!pending) return;
    if (side) this.#side.delete(reply.id);
    else {
      clearTimeout(this.#timer);
      this.#current = undefined;
      queueMicrotask(() => this.#dispatch());
    }
    if (reply.type === 'done') pending.resolve(reply.result);
    else pending.reject(new ToolTaskError(reply.message, reply.userFacing, reply.detail));
  }

  /** The worker died or hung: what it was doing fails, and the next request starts a new one. */
  #fail(error: ToolTaskError): void {
    const worker = this.#worker;
    this.#worker = undefined;
    clearTimeout(this.#timer);
    const current = this.#current;
    this.#current = undefined;
    current?.reject(error);
    for (const pending of this.#side.values()) pending.reject(error);
    this.#side.clear();
    if (worker) {
      worker.removeAllListeners('exit');
      void worker.terminate();
    }
    if (!this.#closed) queueMicrotask(() => this.#dispatch());
  }

  /** Stops the worker; waiting requests fail. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    clearTimeout(this.#idleTimer);
    const error = new Error('identification is closed');
    for (const pending of this.#queue.splice(0)) pending.reject(error);
    this.#current?.reject(error);
    this.#current = undefined;
    for (const pending of this.#side.values()) pending.reject(error);
    this.#side.clear();
    const worker = this.#worker;
    this.#worker = undefined;
    if (worker) {
      worker.removeAllListeners('exit');
      await worker.terminate();
    }
  }
}

// One host per process, on globalThis: the page bundle (which serves the API) and the start script
// (which asks for the references to be prepared) each load this module, and a host of each started
// two workers, two readers' models and two reference indexes, one of them never written to.
const SLOT = Symbol.for('font-alliance.identify-host');
const slot = globalThis as { [SLOT]?: IdentifyHost | undefined };

/** The process's identification worker, started on first use. */
export function identifyHost(): IdentifyHost {
  slot[SLOT] ??= new IdentifyHost();
  return slot[SLOT];
}

/** Stops the identification worker (tests and shutdown). */
export async function closeIdentifyHost(): Promise<void> {
  const host = slot[SLOT];
  slot[SLOT] = undefined;
  await host?.close();
}
