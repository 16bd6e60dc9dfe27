// Preloaded into the server under measurement (node --import), in the main thread and in every worker
// thread: watches the event loop, and on SIGUSR2 writes to stderr the delays seen since the last
// report as one `LOOP_DELAY {json}` line, then where the memory is as one `MEMORY {json}` line:
// the process's RSS from /proc, and each thread's V8 heap and WebAssembly memories (HarfBuzz's
// subset heaps, PGlite, the OCR runtime), which no outside tool can tell apart.
import fs from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import v8 from 'node:v8';
import * as workerThreads from 'node:worker_threads';

const CHANNEL = 'bench-memory-probe';
const MB = 1024 * 1024;
const round = (bytes: number) => Math.round((bytes / MB) * 10) / 10;

// Every WebAssembly memory this thread makes or is handed by an instance, held weakly.
const memories = new Set<WeakRef<WebAssembly.Memory>>();
const OriginalMemory = WebAssembly.Memory;
const track = (memory: unknown) => {
  if (memory instanceof OriginalMemory) memories.add(new WeakRef(memory));
};
const trackExports = (exports: WebAssembly.Exports) => {
  for (const value of Object.values(exports)) track(value);
};
const OriginalInstance = WebAssembly.Instance;
const originalInstantiate = WebAssembly.instantiate;
// The stand-ins answer `instanceof` as the originals do, for memories and instances made elsewhere.
WebAssembly.Memory = class extends OriginalMemory {
  constructor(descriptor: WebAssembly.MemoryDescriptor) {
    super(descriptor);
    track(this);
  }
  static override [Symbol.hasInstance](value: unknown) {
    return value instanceof OriginalMemory;
  }
} as typeof WebAssembly.Memory;
WebAssembly.Instance = class extends OriginalInstance {
  constructor(module: WebAssembly.Module, imports?: WebAssembly.Imports) {
    super(module, imports);
    trackExports(this.exports);
  }
  static override [Symbol.hasInstance](value: unknown) {
    return value instanceof OriginalInstance;
  }
} as typeof WebAssembly.Instance;
WebAssembly.instantiate = (async (...args: Parameters<typeof WebAssembly.instantiate>) => {
  const result = (await originalInstantiate(...args)) as
    | WebAssembly.Instance
    | WebAssembly.WebAssemblyInstantiatedSource;
  trackExports('instance' in result ? result.instance.exports : result.exports);
  return result;
}) as typeof WebAssembly.instantiate;
const originalStreaming = WebAssembly.instantiateStreaming;
WebAssembly.instantiateStreaming = (async (...args: Parameters<typeof WebAssembly.instantiateStreaming>) => {
  const result = await originalStreaming(...args);
  trackExports(result.instance.exports);
  return result;
}) as typeof WebAssembly.instantiateStreaming;

/** This thread's memory: its V8 heap and the WebAssembly memories still alive. */
function threadMemory() {
  const heap = v8.getHeapStatistics();
  let wasm = 0;
  let count = 0;
  for (const ref of memories) {
    const memory = ref.deref();
    if (!memory) {
      memories.delete(ref);
      continue;
    }
    wasm += memory.buffer.byteLength;
    count++;
  }
  return {
    heapUsedMB: round(heap.used_heap_size),
    heapTotalMB: round(heap.total_heap_size),
    externalMB: round(heap.external_memory),
    arrayBuffersMB: round(process.memoryUsage().arrayBuffers),
    wasmMB: round(wasm),
    wasmMemories: count,
  };
}

const channel = new BroadcastChannel(CHANNEL);
(channel as unknown as { unref(): void }).unref();

if (workerThreads.isMainThread) {
  // Names each worker thread by its script, so the report says which pool a heap belongs to.
  const names = new Map<number, string>();
  // The builtin's CommonJS object is writable; syncBuiltinESMExports carries the change to `import`.
  const builtin = createRequire(import.meta.url)('node:worker_threads') as typeof workerThreads;
  const OriginalWorker = builtin.Worker;
  builtin.Worker = class extends OriginalWorker {
    constructor(file: string | URL, options?: workerThreads.WorkerOptions) {
      super(file, options);
      names.set(this.threadId, String(file).split('/').slice(-2).join('/'));
    }
  };
  syncBuiltinESMExports();

  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  const replies: Array<{ threadId: number } & ReturnType<typeof threadMemory>> = [];
  channel.onmessage = (event: MessageEvent) => {
    if (event.data?.type === 'reply') replies.push(event.data);
  };
  process.on('SIGUSR2', () => {
    const ms = (ns: number) => Math.round(ns / 1e4) / 100;
    const report = { maxMs: ms(histogram.max), p99Ms: ms(histogram.percentile(99)), meanMs: ms(histogram.mean) };
    process.stderr.write(`LOOP_DELAY ${JSON.stringify(report)}\n`);
    histogram.reset();
    replies.length = 0;
    channel.postMessage({ type: 'ask' });
    // Workers busy with a long task answer late; a report without them says so by their absence.
    setTimeout(() => {
      const status = fs.readFileSync('/proc/self/status', 'utf8');
      const kb = (field: string) => Number(status.match(new RegExp(`^${field}:\\s+(\\d+)`, 'm'))?.[1] ?? 0) * 1024;
      const threads = [
        { thread: 'main', ...threadMemory() },
        ...replies.map(({ threadId, ...memory }) => ({
          thread: names.get(threadId) ?? `worker ${threadId}`,
          ...memory,
        })),
      ];
      const memory = {
        rssMB: round(kb('VmRSS')),
        rssAnonMB: round(kb('RssAnon')),
        rssFileMB: round(kb('RssFile')),
        workers: names.size,
        threads,
      };
      process.stderr.write(`MEMORY ${JSON.stringify(memory)}\n`);
    }, 2_000).unref();
  });
} else {
  channel.onmessage = (event: MessageEvent) => {
    if (event.data?.type === 'ask')
      channel.postMessage({ type: 'reply', threadId: workerThreads.threadId, ...threadMemory() });
  };
}
