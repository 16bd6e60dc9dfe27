import type { Worker } from 'node:worker_threads';
import { shareFontRegistry } from '../engine/text/font-registry.ts';
import { BACKGROUND_WORK_NICE, lowPriorityWorker, PROMPT_WORK_NICE } from '../engine/thread-priority.ts';
import { serverSource } from '../paths.ts';
import type { Progress } from './task-types.ts';
import type { TaskResults, ToolTask } from './tasks.ts';
import type { ToolReply } from './worker.ts';

// Worker threads for the font tools. Conversions can take a minute (WOFF2 at Brotli q11 of a
// 20 MB font), so they never run on the event loop, and the pool keeps two workers free of them:
// one for quick checks (uploads are checked promptly even while every other worker converts) and
// one for small jobs (another client's subset of a few characters does not wait for a flood of
// conversions to end). Tasks wait in four lanes: quick checks first, then small jobs, then users'
// long jobs, then background work (re-encoding web-font slices).

/** Which queue a task waits in. */
export type Lane = 'quick' | 'small' | 'job' | 'background';

/** Workers kept for small jobs, beside the job workers and the quick one. */
const SMALL_WORKERS = 1;
/** Workers kept prompt: the quick one and the small jobs'. */
const PROMPT_WORKERS = 1 + SMALL_WORKERS;

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
  /** A job worker (long work, at BACKGROUND_WORK_NICE) rather than a prompt one. */
  long: boolean;
}

const WORKER_FILE = serverSource('tools', 'worker.ts');
const DEFAULT_TIMEOUT_MS = 10 * 60_000;

/**
 * A small pool of tool workers: `jobWorkers` for long tasks, at a lower scheduling priority, and two
 * prompt ones, kept for quick checks and small jobs.
 */
export class ToolsPool {
  readonly #jobWorkers: number;
  readonly #slots: Slot[] = [];
  readonly #queues: Record<Lane, Queued[]> = { quick: [], small: [], job: [], background: [] };
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
      const running = (...lanes: Lane[]) =>
        this.#slots.filter((slot) => slot.running && lanes.includes(slot.running.options.lane)).length;
      const longRunning = running('job', 'background');
      // A small job takes the worker kept for it, or a job worker that is free.
      const smallRoom = running('small') < SMALL_WORKERS + Math.max(0, this.#jobWorkers - longRunning);
      const next =
        this.#queues.quick[0] ??
        (smallRoom ? this.#fairest('small') : undefined) ??
        (longRunning < this.#jobWorkers ? (this.#fairest('job') ?? this.#queues.background[0]) : undefined);
      if (!next) return;
      const long = next.options.lane === 'job' || next.options.lane === 'background';
      const slot = this.#idleSlot(long);
      if (!slot) return;
      const queue = this.#queues[next.options.lane];
      queue.splice(queue.indexOf(next), 1);
      if (next.options.lane === 'job' || next.options.lane === 'small') {
        this.#served.set(next.options.client ?? '', ++this.#starts);
        if (this.#served.size > 10_000) this.#served.delete(this.#served.keys().next().value as string);
      }
      this.#start(slot, next);
      // A prompt worker takes a second or more to load its modules, which the small job or the
      // upload check that comes next should not wait for: one is started while long work runs.
      if (long && !this.#slots.some((candidate) => !candidate.running && !candidate.long)) this.#add(false);
    }
  }

  /**
   * The waiting job whose client was served longest ago (never, first), oldest first among equals:
   * clients take turns, so one client's many jobs wait behind each other, not in front of others.
   */
  #fairest(lane: 'job' | 'small'): Queued | undefined {
    let best: Queued | undefined;
    let bestServed = Number.POSITIVE_INFINITY;
    for (const queued of this.#queues[lane]) {
      const served = this.#served.get(queued.options.client ?? '') ?? 0;
      if (served < bestServed) {
        best = queued;
        bestServed = served;
      }
    }
    return best;
  }

  /**
   * A free worker for long work (a job worker) or prompt work (a prompt worker, else a free job
   * worker rather than none), started when there is room for one more of its kind.
   */
  #idleSlot(long: boolean): Slot | undefined {
    const idle = (kind: boolean) => this.#slots.find((slot) => !slot.running && slot.long === kind);
    if (long) return idle(true) ?? this.#add(true);
    return idle(false) ?? this.#add(false) ?? idle(true);
  }

  #add(long: boolean): Slot | undefined {
    const count = this.#slots.filter((slot) => slot.long === long).length;
    if (this.#closed || count >= (long ? this.#jobWorkers : PROMPT_WORKERS)) return undefined;
    // Tool workers draw text (pixel fonts, word clouds, identification): they share the process's
    // one register of drawing faces, which must exist before they start.
    shareFontRegistry();
    // A conversion may keep a processor busy for a minute: at the background priority it takes only
    // what the server's own thread and the prompt workers leave. Prompt work sits just below the
    // server's thread, so pages and the API are served first on a machine with two cores.
    const nice = long ? BACKGROUND_WORK_NICE : PROMPT_WORK_NICE;
    const worker = lowPriorityWorker(WORKER_FILE, nice);
    worker.unref();
    const slot: Slot = { worker, running: undefined, timer: undefined, long };
    this.#slots.push(slot);
    this.#listen(slot);
    return slot;
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
