// The entry of every worker thread that runs below the server's own thread (thread-priority.ts):
// it lowers this thread's priority first and only then loads the worker's own module. A worker
// that lowered itself in its own module did so after its imports were compiled and run (half a
// second of a core for a tools worker, more for identification), at the server's priority, beside
// the readers of the minute it started in.
import { pathToFileURL } from 'node:url';
import { workerData } from 'node:worker_threads';
import { type LowPriorityBoot, lowerThreadPriority } from './thread-priority.ts';

const { file, nice } = (workerData as LowPriorityBoot).lowPriority;
lowerThreadPriority(nice);
await import(pathToFileURL(file).href);
