import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { SeedThread } from '../../src/server/db/seed/off-thread.ts';
import { lowPriorityWorker, PROMPT_WORK_NICE } from '../../src/server/engine/thread-priority.ts';
import { serverSource } from '../../src/server/paths.ts';
import { closeIdentifyHost, identifyHost } from '../../src/server/tools/identify/host.ts';

// Workers run below the server's own scheduling priority, whatever the server's is: a server started
// under `nice` must not find its conversions level with its pages and small jobs, and on two cores a
// page is served at once while identification prepares its references or a family is seeded.

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

/** The nice values of the threads started since `before` was read. */
function newThreadNices(before: ReadonlySet<string>): number[] {
  return [...threadNices()].filter(([tid]) => !before.has(tid)).map(([, nice]) => nice);
}

// Linux only: elsewhere a nice value belongs to the whole process, so a thread cannot lower its own
// (the workers then run as they are) and /proc/self/task, which the test reads, does not exist.
describe.runIf(process.platform === 'linux')('a worker’s priority', () => {
  // The server here runs two steps below normal, as if started under `nice -n 2`; new threads
  // inherit it.
  const own = Math.min(17, os.getPriority(0) + 2);
  os.setPriority(0, own);
  afterAll(() => closeIdentifyHost());

  test('a job worker: ten below the server’s own, not a fixed value', async () => {
    const before = new Set(threadNices().keys());
    const worker = lowPriorityWorker(serverSource('tools', 'worker.ts'), 10);
    try {
      await expect.poll(() => newThreadNices(before), { timeout: 60_000 }).toContain(Math.min(19, own + 10));
    } finally {
      await worker.terminate();
    }
  });

  test('the identification worker: five below, answers and background preparation alike', async () => {
    const before = new Set(threadNices().keys());
    identifyHost().prepare([]);
    await expect.poll(() => newThreadNices(before)).toContain(own + 5);
    // Not as low as background work: a person waits for its answers.
    expect(newThreadNices(before)).not.toContain(Math.min(19, own + 10));
  });

  test('the seeding worker: ten below', async () => {
    const before = new Set(threadNices().keys());
    const seeding = new SeedThread();
    try {
      await expect.poll(() => newThreadNices(before)).toContain(Math.min(19, own + 10));
    } finally {
      await seeding.close();
    }
  });
});

// A worker below the server's thread must be below it while its modules load: loading a tools
// worker's imports is half a second of a core, which at the server's priority slowed the readers
// of the minute the first tools were used in.

test.runIf(process.platform === 'linux')(
  'a low-priority worker’s imports are evaluated at the lowered priority, and its workerData reaches it',
  async () => {
    const base = os.getPriority(0);
    const worker = lowPriorityWorker(path.resolve('tests/fixtures/workers/priority-probe.ts'), PROMPT_WORK_NICE, {
      workerData: { extra: 'kept' },
    });
    try {
      const seen = await new Promise((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      expect(seen).toEqual({ priorityAtImport: Math.min(19, base + PROMPT_WORK_NICE), extra: 'kept' });
    } finally {
      await worker.terminate();
    }
  },
);

test('no worker lowers its own priority in its module, after its imports have loaded', () => {
  const lowering: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (/\.tsx?$/.test(entry.name) && fs.readFileSync(file, 'utf8').includes('lowerThreadPriority(')) {
        lowering.push(path.relative('src', file));
      }
    }
  };
  walk('src');
  expect(lowering.sort()).toEqual(['server/engine/low-priority-worker.ts', 'server/engine/thread-priority.ts']);
});
