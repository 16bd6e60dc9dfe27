// Many readers of an answer not yet held (the first after a start, or after a change purged it) are
// answered by one computation of it, not one each: each computation of a list runs its queries on the
// event loop, and fifty of them back to back stalled every read for hundreds of milliseconds.
import { Hono } from 'hono';
import { describe, expect, test } from 'vitest';
import { answerCache, cachedRead } from '../../src/server/http/answer-cache.ts';

/** A route that counts its runs and answers only when let go. */
function gatedApp(tag: string) {
  const app = new Hono();
  let runs = 0;
  let release: () => void = () => undefined;
  let gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  app.get(`/${tag}`, cachedRead({ tags: [tag] }), async (c) => {
    runs++;
    const run = runs;
    await gate;
    return c.json({ code: '200', message: 'ok', data: { run } });
  });
  return {
    app,
    path: `/${tag}`,
    runs: () => runs,
    open() {
      release();
      gate = Promise.resolve();
    },
    close() {
      gate = new Promise<void>((resolve) => {
        release = resolve;
      });
    },
  };
}

/** Waits until the route has started `count` runs. */
async function started(route: { runs(): number }, count: number): Promise<void> {
  while (route.runs() < count) await new Promise((resolve) => setImmediate(resolve));
}

const bodies = async (answers: Response[]) =>
  Promise.all(answers.map(async (res) => ((await res.json()) as { data: { run: number } }).data.run));

describe('an answer computed while others wait for it', () => {
  test('is computed once for every request that asked meanwhile, and each gets it', async () => {
    const route = gatedApp('flight-once');
    const waiting = Array.from({ length: 20 }, () => route.app.request(route.path));
    await started(route, 1);
    // The others reach the cache while the first computation waits at the gate.
    for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
    route.open();
    const answers = await Promise.all(waiting);
    expect(answers.map((res) => res.status)).toEqual(answers.map(() => 200));
    expect(await bodies(answers)).toEqual(answers.map(() => 1));
    expect(route.runs()).toBe(1);
  });

  test('is not handed to a request that came after a change: that one computes it again', async () => {
    const route = gatedApp('flight-purge');
    route.close();
    const before = route.app.request(route.path);
    await started(route, 1);
    answerCache().purge('flight-purge');
    const after = route.app.request(route.path);
    await new Promise((resolve) => setImmediate(resolve));
    route.open();
    const [first, second] = await bodies(await Promise.all([before, after]));
    expect(first).toBe(1);
    expect(second).toBe(2);
    expect(route.runs()).toBe(2);
  });
});
