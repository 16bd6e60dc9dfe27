import os from 'node:os';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { serverSource } from '../paths.ts';

// Worker threads that do long or background work run below the server's own thread, so that on a
// machine with two cores a page or an API read is served at once while fonts are drawn, converted or
// seeded beside it. On Linux a nice value belongs to one thread: a worker lowers its own.

/** Tool work a person waits for (a pixel preview, a word cloud, an identification): a little lower. */
export const PROMPT_WORK_NICE = 5;
/** Work nobody watches closely (a conversion, seeding, re-encoding a download): much lower. */
export const BACKGROUND_WORK_NICE = 10;

/**
 * Lowers the calling thread's scheduling priority by `by` (added to what the process already has,
 * so a server started under `nice` keeps its workers below itself rather than level with it).
 */
export function lowerThreadPriority(by: number): void {
  if (by <= 0) return;
  try {
    os.setPriority(0, Math.min(19, os.getPriority(0) + by));
  } catch {
    // A platform that does not let a thread lower its own priority runs it as it is.
  }
}

/** What low-priority-worker.ts finds in its workerData: the worker's own module and how far to step down. */
export interface LowPriorityBoot {
  lowPriority: { file: string; nice: number };
}

// From the source tree, as every worker's own module: this module may run bundled into dist/server.
const BOOT_FILE = serverSource('engine', 'low-priority-worker.ts');

/**
 * A worker thread running `file` `nice` steps below the calling thread, lowered before `file` and
 * its imports load (low-priority-worker.ts). `options.workerData`, an object if given, reaches the
 * worker beside the boot's own field.
 */
export function lowPriorityWorker(file: string, nice: number, options: WorkerOptions = {}): Worker {
  const data = (options.workerData ?? {}) as Record<string, unknown>;
  const boot: LowPriorityBoot = { lowPriority: { file, nice } };
  return new Worker(BOOT_FILE, { ...options, workerData: { ...data, ...boot } });
}
