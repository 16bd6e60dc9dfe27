import fs from 'node:fs';
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { describe, expect, test } from 'vitest';
import { serverSource } from '../../src/server/paths.ts';

// Job workers run below the server's own scheduling priority, whatever the server's is: a server
// started under `nice` must not find its conversions level with its pages and small jobs.

/** The threads of this process and their nice values (Linux keeps one per thread). */
function threadNices(): Map<string, number> {
  const nices = new Map<string, number>();
  for (const tid of fs.readdirSync('/proc/self/task')) {
    const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    // Fields after the command's closing parenthesis start at the third; nice is the nineteenth.
    nices.set(tid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
  }
  return nices;
}

describe.runIf(process.platform === 'linux')('a job worker’s priority', () => {
  test('is ten below the server’s own, not a fixed value', async () => {
    // The server here runs two steps below normal, as if started under `nice -n 2`; new threads
    // inherit it.
    const own = Math.min(17, os.getPriority(0) + 2);
    os.setPriority(0, own);
    const before = new Set(threadNices().keys());
    const worker = new Worker(serverSource('tools', 'worker.ts'), { workerData: { nice: 10 } });
    try {
      // Waits for the worker to load its modules and lower itself.
      await expect
        .poll(() => [...threadNices()].filter(([tid]) => !before.has(tid)).map(([, nice]) => nice), { timeout: 60_000 })
        .toContain(Math.min(19, own + 10));
    } finally {
      await worker.terminate();
    }
  });
});
