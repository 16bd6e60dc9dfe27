// First start of a checkout as a newcomer meets it: `npm start` with an empty data folder (a fresh
// clone also builds the site), timed to the first page answered, to "is ready", to the first article
// and to the whole library seeded in the background; then a later start of the same folder, the
// reference, timed to its first page.
//
//   node tests/bench/first-start.ts [checkout=.] [--port=4621] [--offline]
//
// --offline points the registry at a closed port: the site must still answer and say what is missing.
// The data folder is made fresh under the temporary folder and removed at the end.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const args = process.argv.slice(2);
const checkout = path.resolve(args.find((arg) => !arg.startsWith('--')) ?? '.');
const port = Number(args.find((arg) => arg.startsWith('--port='))?.slice(7) ?? 4621);
const offline = args.includes('--offline');
const origin = `http://127.0.0.1:${port}`;

async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(free));
    });
  });
}

interface Run {
  child: ChildProcess;
  started: number;
  output: () => string;
  marks: Map<string, number>;
  exited: Promise<void>;
}

function start(dataDir: string, env: Record<string, string>): Run {
  const child = spawn(process.execPath, ['scripts/start.ts'], {
    cwd: checkout,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const run: Run = {
    child,
    started: performance.now(),
    output: () => text,
    marks: new Map(),
    exited: new Promise((resolve) => child.once('exit', () => resolve())),
  };
  let text = '';
  const watch = (chunk: Buffer) => {
    text += chunk.toString();
    const at = performance.now() - run.started;
    const mark = (name: string, pattern: RegExp) =>
      !run.marks.has(name) && pattern.test(text) && run.marks.set(name, at);
    mark('built', /Built in/);
    mark('ready', /is ready at/);
    mark('article', /font library: Content: [^\n"]*news/);
    mark('library', /font library: \d+\/\d+ families, \d+ added in the background/);
    mark('unreachable', /cannot be reached/);
  };
  child.stdout?.on('data', watch);
  child.stderr?.on('data', watch);
  return run;
}

async function firstPage(run: Run): Promise<number> {
  for (;;) {
    if (run.child.exitCode !== null) throw new Error(`npm start stopped:\n${run.output()}`);
    const answer = await fetch(`${origin}/`).catch(() => undefined);
    if (answer?.status === 200) {
      await answer.arrayBuffer();
      return performance.now() - run.started;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function until(run: Run, mark: string, timeoutMs: number): Promise<number | undefined> {
  const deadline = performance.now() + timeoutMs;
  while (!run.marks.has(mark) && performance.now() < deadline && run.child.exitCode === null)
    await new Promise((resolve) => setTimeout(resolve, 200));
  return run.marks.get(mark);
}

async function stop(run: Run): Promise<void> {
  run.child.kill('SIGTERM');
  await run.exited;
}

const seconds = (ms: number | undefined) => (ms === undefined ? '—' : `${(ms / 1000).toFixed(1)} s`);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'font-alliance-first-start-'));
const env: Record<string, string> = offline ? { NPM_REGISTRY: `http://127.0.0.1:${await closedPort()}/` } : {};
try {
  const first = start(dataDir, env);
  const page = await firstPage(first);
  const ready = await until(first, 'ready', 120_000);
  const article = offline ? undefined : await until(first, 'article', 900_000);
  const library = offline ? undefined : await until(first, 'library', 1_800_000);
  const unreachable = offline ? await until(first, 'unreachable', 120_000) : undefined;
  await stop(first);

  const later = start(dataDir, env);
  const laterPage = await firstPage(later);
  await stop(later);

  console.log(`checkout ${checkout}${offline ? ' (no registry)' : ''}`);
  console.log(
    `first start: built ${seconds(first.marks.get('built'))}, first page ${seconds(page)}, ready ${seconds(ready)}`,
  );
  if (offline) console.log(`  the log named what is missing after ${seconds(unreachable)}`);
  else console.log(`  first articles ${seconds(article)}, whole library ${seconds(library)}`);
  console.log(`later start (reference): first page ${seconds(laterPage)}`);
  console.log(`first page, first start / later start: ${(page / laterPage).toFixed(2)}×`);
  if (offline) {
    const lines = first
      .output()
      .split('\n')
      .filter((line) => /cannot be reached/.test(line));
    console.log(lines[0]?.slice(0, 400));
  }
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
