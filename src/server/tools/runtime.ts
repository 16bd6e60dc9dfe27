import os from 'node:os';
import { env } from '../env.ts';
import { badRequest } from '../http/envelope.ts';
import { closeIdentifyHost } from './identify/host.ts';
import { ToolsPool, ToolTaskError } from './pool.ts';

/** The largest font (bytes) a WOFF, WOFF2 or TTC may expand to; larger ones are treated as bombs. */
export const MAX_DECODED_FONT_BYTES = 64 << 20;

// One pool per process, on globalThis: the page bundle and the start script each load this module.
const SLOT = Symbol.for('font-alliance.tools-pool');
const slot = globalThis as { [SLOT]?: ToolsPool | undefined };

/** Workers of the pool that run jobs (one more is kept for quick checks): as many jobs as run at once here. */
export function toolsJobWorkers(): number {
  return env().TOOLS_WORKERS ?? Math.max(1, Math.min(2, os.availableParallelism() - 1));
}

/** The shared tools worker pool, started on first use. */
export function toolsPool(): ToolsPool {
  slot[SLOT] ??= new ToolsPool(toolsJobWorkers());
  return slot[SLOT];
}

/** How long uploads and outputs are kept, in milliseconds. */
export function toolsTtlMs(): number {
  return env().TOOLS_TEMP_TTL_MINUTES * 60_000;
}

/** Stops the tools workers and the identification worker (tests and shutdown). */
export async function closeToolsPool(): Promise<void> {
  const pool = slot[SLOT];
  slot[SLOT] = undefined;
  await Promise.all([pool?.close(), closeIdentifyHost()]);
}

/** A worker's refusal of the person's input becomes a 400 with its Chinese message; other failures pass on. */
export async function userFacing<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof ToolTaskError && error.userFacing) throw badRequest(error.message);
    throw error;
  }
}
