// A worker thread of the tools pool (tools-pool.ts): runs one font task at a time and reports its
// progress. Runs on Node 24 directly (types are stripped), like the subset workers.
import { parentPort } from 'node:worker_threads';
import { FontInputError } from '../engine/font-errors.ts';
import { runTask, type ToolTask } from './tasks.ts';

/** A message from a tools worker: progress of a task, its result, or why it failed. */
export type ToolReply =
  | { id: number; type: 'progress'; progress: number; step: string; indeterminate: boolean }
  | { id: number; type: 'done'; result: unknown }
  | { id: number; type: 'failed'; message: string; detail: string; userFacing: boolean };

const port = parentPort;
if (!port) throw new Error('tools-worker.ts must run as a worker thread');

// Started below the server's own thread (pool.ts: lowPriorityWorker), job workers further below than prompt ones.

port.on('message', async ({ id, task }: { id: number; task: ToolTask }) => {
  const send = (reply: ToolReply) => port.postMessage(reply);
  try {
    const result = await runTask(task, (progress, step, options) =>
      send({ id, type: 'progress', progress, step, indeterminate: options?.indeterminate ?? false }),
    );
    send({ id, type: 'done', result });
  } catch (error) {
    const userFacing = error instanceof FontInputError;
    const message = error instanceof Error ? error.message : String(error);
    const detail = userFacing ? error.detail : String((error as Error)?.stack ?? error);
    send({ id, type: 'failed', message, detail, userFacing });
  }
});
