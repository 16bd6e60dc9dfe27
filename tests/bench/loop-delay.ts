// Preloaded into the server under measurement (node --import): watches its event loop, and on
// SIGUSR2 writes the delays seen since the last report to stderr as one `LOOP_DELAY {json}` line.
import { monitorEventLoopDelay } from 'node:perf_hooks';

const histogram = monitorEventLoopDelay({ resolution: 5 });
histogram.enable();
process.on('SIGUSR2', () => {
  const ms = (ns: number) => Math.round(ns / 1e4) / 100;
  const report = { maxMs: ms(histogram.max), p99Ms: ms(histogram.percentile(99)), meanMs: ms(histogram.mean) };
  process.stderr.write(`LOOP_DELAY ${JSON.stringify(report)}\n`);
  histogram.reset();
});
