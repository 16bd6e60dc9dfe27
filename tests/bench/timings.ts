// What the database benchmarks share: one call timed over and over, one after another.
import { performance } from 'node:perf_hooks';

/** The time of each of `rounds` calls of `run`, in ms, each awaited before the next. */
export async function timeRounds(rounds: number, run: (i: number) => unknown): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < rounds; i += 1) {
    const started = performance.now();
    await run(i);
    samples.push(performance.now() - started);
  }
  return samples;
}
