import { Worker } from 'node:worker_threads';
import { shareFontRegistry } from '../engine/text/font-registry.ts';
import { serverSource } from '../paths.ts';
import type { Progress } from './task-types.ts';
import type { TaskResults, ToolTask } from './tasks.ts';
import type { ToolReply } from './worker.ts';

// Worker threads for the font tools. Conversions can take a minute (WOFF2 at Brotli q11 of a
// 20 MB font), so they never run on the event loop, and the pool keeps one worker free of them:
// uploads are checked promptly even while every other worker converts. Tasks wait in three
// lanes: quick checks first, then users' jobs, then background work (re-encoding web-font slices).

/** Which queue a task waits in. */
export type Lane = 'quick' | 'job' | 'background';

/** A task failed: `userFacing` messages are Chinese and meant for the user, others for the log. */
export class ToolTaskError extends Error {
  override name = 'ToolTaskError';
  readonly userFacing: boolean;
  readonly detail: string;

  constructor(message: string, userFacing: boolean, detail = '') {
    super(message);
    this.userFacing = userFacing;
    this.detail = detail;
  }
}

/** How to run one task. */
export interface RunOptions {
  lane: Lane;
  onProgress?: Progress;
  /** The worker is stopped and the task fails after this long. */
  timeoutMs?: number;
  /** Whose task it is: waiting jobs of different clients are served in turn. */
  client?: string;
}

interface Queued {
  id: number;
  task: ToolTask;
  options: RunOptions;
  resolve(result: unknown): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  running: Queued | undefined;
  timer: NodeJS.Timeout | undefined;
}

const WORKER_FILE = serverSource('tools', 'worker.ts');
const DEFAULT_TIMEOUT_MS = 10 * 60_000;

/** A small pool of tool workers: `jobWorkers` for long tasks plus one kept for quick ones. */
export class ToolsPool {
  readonly #jobWorkers: number;
  readonly #slots: Slot[] = [];
  readonly #queues: Record<Lane, Queued[]> = { quick: [], job: [], background: [] };
  /** When each client's job last started (a counter), for taking clients in turn. */
  readonly #served = new Map<string, number>();
  #starts = 0;
  #nextId = 1;
  #closed = false;

  constructor(jobWorkers: number) {
    this.#jobWorkers = Math.max(1, jobWorkers);
  }

  /** Runs a task in a worker; resolves with its result or rejects with a ToolTaskError. */
  run<K extends ToolTask['kind']>(task: Extract<ToolTask, { kind: K }>, options: RunOptions): Promise<TaskResults[K]> {
    if (this.#closed) return Promise.reject(new Error('tools pool is closed'));
    return new Promise((resolve, reject) => {
      this.#queues[options.lane].push({
        id: this.#nextId++,
        task,
        options,
        resolve: resolve as (result: unknown) => void,
        reject,
      });
      this.#dispatch();
    });
  }

  /** Tasks waiting (not running) in a lane. */
  waiting(lane: Lane): number {
    return this.#queues[lane].length;
  }

  #dispatch(): void {
    for (;;) {
      const longRunning = this.#slots.filter((slot) => slot.running && slot.running.options.lane !== 'quick').length;
      const next =
        this.#queues.quick[0] ??
        (longRunning < this.#jobWorkers ? (this.#fairestJob() ?? this.#queues.background[0]) : undefined);
      if (!next) return;
      const slot = this.#idleSlot();
      if (!slot) return;
      const queue = this.#queues[next.options.lane];
      queue.splice(queue.indexOf(next), 1);
      if (next.options.lane === 'job') {
        this.#served.set(next.options.client ?? '', ++this.#starts);
        if (this.#served.size > 10_000) this.#served.delete(this.#served.keys().next().value as string);
      }
      this.#start(slot, next);
    }
  }

  /**
   * The waiting job whose client was served longest ago (never, first), oldest first among equals:
   * clients take turns, so one client's many jobs wait behind each other, not in front of others.
   */
  #fairestJob(): Queued | undefined {
    let best: Queued | undefined;
    let bestServed = Number.POSITIVE_INFINITY;
    for (const queued of this.#queues.job) {
      const served = this.#served.get(queued.options.client ?? '') ?? 0;
      if (served < bestServed) {
        best = queued;
        bestServed = served;
      }
    }
    return best;
  }

  #idleSlot(): Slot | undefined {
    const idle = this.#slots.find((slot) => !slot.running);
    if (idle) return idle;
    if (this.#slots.length >= this.#jobWorkers + 1) return undefined;
    const slot: Slot = { worker: this.#spawn(), running: undefined, timer: undefined };
    this.#slots.push(slot);
    this.#listen(slot);
    return slot;
  }

  #spawn(): Worker {
    // Tool workers draw text (pixel fonts, word clouds, identification): they share the process's
    // one register of drawing faces, which must exist before they start.
    shareFontRegistry();
    const worker = new Worker(WORKER_FILE);
    worker.unref();
    return worker;
  }

  #listen(slot: Slot): void {
    slot.worker.on('message', (reply: ToolReply) => {
      const task = slot.running;
      if (!task || task.id !== reply.id) return;
      if (reply.type === 'progress') {
        task.options.onProgress?.(reply.progress, reply.step, { indeterminate: reply.indeterminate });
        return;
      }
      this.#finish(slot);
      if (reply.type === 'done') task.resolve(reply.result);
      else task.reject(new ToolTaskError(reply.message, reply.userFacing, reply.detail));
    });
    slot.worker.on('error', (error) => this.#replace(slot, new ToolTaskError(error.message, false, error.stack)));
    slot.worker.on('exit', (code) => {
      if (slot.running) this.#replace(slot, new ToolTaskError(`tools worker exited with ${code}`, false));
    });
  }

  #start(slot: Slot, task: Queued): void {
    slot.running = task;
    slot.timer = setTimeout(() => {
      this.#replace(
        slot,
        new ToolTaskError('处理时间过长，已停止；请换一个较小的字体或减少输出格式后再试', true, 'task timed out'),
      );
    }, task.options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    slot.timer.unref();
    slot.worker.postMessage({ id: task.id, task: task.task });
  }

  #finish(slot: Slot): void {
    clearTimeout(slot.timer);
    slot.running = undefined;
    slot.timer = undefined;
    queueMicrotask(() => this.#dispatch());
  }

  /** A worker died or hung: fail its task, drop it, and let the next task start a fresh one. */
  #replace(slot: Slot, error: ToolTaskError): void {
    const task = slot.running;
    clearTimeout(slot.timer);
    slot.running = undefined;
    const index = this.#slots.indexOf(slot);
    if (index >= 0) this.#slots.splice(index, 1);
    slot.worker.removeAllListeners('exit');
    void slot.worker.terminate();
    task?.reject(error);
    if (!this.#closed) queueMicrotask(() => this.#dispatch());
  }

  /** Stops every worker; waiting tasks fail. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const lane of Object.values(this.#queues)) {
      for (const task of lane.splice(0)) task.reject(new Error('tools pool is closed'));
    }
    const slots = this.#slots.splice(0);
    for (const slot of slots) {
      clearTimeout(slot.timer);
      slot.running?.reject(new Error('tools pool is closed'));
      slot.running = undefined;
    }
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }
}
