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
import { gaugeReadings } from '../../src/server/engine/memory-gauges.ts';

const CHANNEL = 'bench-memory-probe';
/** Marks the worker that reads /proc for the main thread's report (see readProcess). */
const PROCESS_READER = 'benchProcessReader';
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
    caches: Object.fromEntries(
      Object.entries(gaugeReadings()).map(([name, reading]) => [
        name,
        {
          MB: round(reading.bytes),
          limitMB: reading.limitBytes && round(reading.limitBytes),
          entries: reading.entries,
        },
      ]),
    ),
  };
}

const GLIBC_HEAP = 64 * MB;
/**
 * The process's resident memory by kind, from /proc/self/smaps: font files and other files mapped
 * (code, Skia's fonts), glibc's heaps (the main one, `[heap]`, and each thread arena's 64 MB
 * reservation, aligned to 64 MB), WebAssembly memories (runs of anonymous mappings of gigabytes:
 * a memory's pages and its guard), and the rest of the anonymous memory (V8's pages, large
 * allocations of native code).
 */
function residentByKind(): Record<string, number> {
  const maps: Array<{ start: number; end: number; name: string; rss: number }> = [];
  for (const line of fs.readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (head) {
      const [, start, end, name] = head as unknown as [string, string, string, string];
      maps.push({ start: Number.parseInt(start, 16), end: Number.parseInt(end, 16), name: name.trim(), rss: 0 });
    } else if (line.startsWith('Rss:') && maps.length) {
      (maps.at(-1) as { rss: number }).rss += Number(line.slice(4).trim().split(/\s+/)[0]) * 1024;
    }
  }
  const kinds: Record<string, number> = {};
  const add = (kind: string, bytes: number) => {
    kinds[kind] = (kinds[kind] ?? 0) + bytes;
  };
  for (let i = 0; i < maps.length; ) {
    const map = maps[i] as (typeof maps)[number];
    if (map.name !== '') {
      const name = map.name;
      if (/\.(ttf|otf|ttc|woff2?)( \(deleted\))?$/i.test(name)) add('font files', map.rss);
      else if (name.startsWith('/')) add(/\.(so[.\d]*|node)$|\/node$/.test(name) ? 'code' : 'other files', map.rss);
      else if (name === '[heap]') add('glibc main heap', map.rss);
      else add('stacks and vdso', map.rss);
      i++;
      continue;
    }
    // A run of adjacent anonymous mappings.
    let j = i + 1;
    while (j < maps.length && maps[j]?.name === '' && maps[j]?.start === maps[j - 1]?.end) j++;
    const run = maps.slice(i, j);
    if ((run.at(-1)?.end ?? 0) - map.start >= 1024 * MB) {
      add(
        'WebAssembly',
        run.reduce((sum, m) => sum + m.rss, 0),
      );
    } else {
      for (let k = 0; k < run.length; k++) {
        const m = run[k] as (typeof run)[number];
        const next = run[k + 1];
        if (m.start % GLIBC_HEAP === 0 && (m.end - m.start === GLIBC_HEAP || next?.end === m.start + GLIBC_HEAP)) {
          add('glibc thread arenas', m.rss + (m.end - m.start === GLIBC_HEAP ? 0 : (next?.rss ?? 0)));
          if (m.end - m.start !== GLIBC_HEAP) k++;
        } else add('other anonymous (V8, mmap)', m.rss);
      }
    }
    i = j;
  }
  return Object.fromEntries(Object.entries(kinds).map(([kind, bytes]) => [kind, round(bytes)]));
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
    setTimeout(async () => {
      const { status, resident } = await readProcess();
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
        resident,
        workers: names.size,
        threads,
      };
      process.stderr.write(`MEMORY ${JSON.stringify(memory)}\n`);
    }, 2_000).unref();
  });

  /**
   * /proc/self/status and the resident memory by kind, read in a thread of the probe's own, started
   * for the reading and ended after it: the kernel takes 30–40 ms to write out this process's 2,000
   * mappings and parsing their 50,000 lines takes more, which on the main thread was the largest delay
   * the soak measured each minute.
   */
  async function readProcess(): Promise<{ status: string; resident: Record<string, number> }> {
    const reader = new OriginalWorker(new URL(import.meta.url), { workerData: { [PROCESS_READER]: true } });
    try {
      return await new Promise((resolve, reject) => {
        reader.once('message', resolve);
        reader.once('error', reject);
      });
    } finally {
      void reader.terminate();
    }
  }
} else if ((workerThreads.workerData as Record<string, unknown> | undefined)?.[PROCESS_READER]) {
  workerThreads.parentPort?.postMessage({
    status: fs.readFileSync('/proc/self/status', 'utf8'),
    resident: residentByKind(),
  });
} else {
  channel.onmessage = (event: MessageEvent) => {
    if (event.data?.type === 'ask')
      channel.postMessage({ type: 'reply', threadId: workerThreads.threadId, ...threadMemory() });
  };
}
