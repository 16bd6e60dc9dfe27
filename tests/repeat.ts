// Runs the test suites N times in a row and reports, per test, how often it failed:
//   npx node tests/repeat.ts [runs=20] [unit|e2e|all=all]
// It builds once first. With `all`, each run starts both suites side by side, as `npm test` does, so
// a run sees the same load as CI. A flaky test shows up here as a test that fails in some runs and
// passes in others.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const runs = Number(process.argv[2] ?? 20);
const which = process.argv[3] ?? 'all';
const failures = new Map<string, number>();
let failedRuns = 0;

interface VitestReport {
  testResults: Array<{ name: string; assertionResults: Array<{ fullName: string; status: string }> }>;
}
interface PlaywrightSuite {
  title: string;
  specs?: Array<{ title: string; ok: boolean }>;
  suites?: PlaywrightSuite[];
}

function count(name: string): void {
  failures.set(name, (failures.get(name) ?? 0) + 1);
  console.log(`  failed: ${name}`);
}

/** Runs a command to its end without blocking the other suite; answers whether it passed. */
function exec(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, stdio: 'ignore' });
    child.on('close', (code) => resolve(code === 0));
  });
}

/** Counts the failed tests of a report; a run that wrote no report counts as one failure of the suite. */
function read<T>(out: string, suite: string): T | undefined {
  if (fs.existsSync(out)) return JSON.parse(fs.readFileSync(out, 'utf8')) as T;
  count(`${suite} (no report: the suite did not finish)`);
  return undefined;
}

async function vitest(out: string): Promise<boolean> {
  const passed = await exec('npx', ['vitest', 'run', '--reporter=json', `--outputFile=${out}`]);
  const report = read<VitestReport>(out, 'vitest');
  for (const file of report?.testResults ?? []) {
    for (const test of file.assertionResults) {
      if (test.status === 'failed') count(`${path.relative(process.cwd(), file.name)} › ${test.fullName}`);
    }
  }
  return passed && report !== undefined;
}

async function playwright(out: string): Promise<boolean> {
  // Each run keeps its own traces and page snapshots, so a failure can still be read after later runs.
  const results = out.replace(/\.json$/, '-results');
  const passed = await exec('npx', ['playwright', 'test', '--reporter=json', `--output=${results}`], {
    ...process.env,
    PLAYWRIGHT_JSON_OUTPUT_NAME: out,
  });
  const walk = (suite: PlaywrightSuite, prefix: string): void => {
    for (const spec of suite.specs ?? []) if (!spec.ok) count(`${prefix}${suite.title} › ${spec.title}`);
    for (const child of suite.suites ?? []) walk(child, `${prefix}${suite.title} › `);
  };
  const report = read<{ suites: PlaywrightSuite[] }>(out, 'playwright');
  for (const suite of report?.suites ?? []) walk(suite, '');
  return passed && report !== undefined;
}

if (spawnSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' }).status !== 0) {
  throw new Error('The build failed; nothing was run');
}
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'repeat-'));
for (let run = 1; run <= runs; run++) {
  const started = Date.now();
  const suites = await Promise.all([
    which === 'e2e' ? true : vitest(path.join(dir, `vitest-${run}.json`)),
    which === 'unit' ? true : playwright(path.join(dir, `playwright-${run}.json`)),
  ]);
  const ok = suites.every(Boolean);
  if (!ok) failedRuns++;
  console.log(`run ${run}/${runs}: ${ok ? 'passed' : 'FAILED'} in ${Math.round((Date.now() - started) / 1000)} s`);
}
console.log(`\n${runs - failedRuns} of ${runs} runs passed`);
for (const [name, times] of [...failures].sort((a, b) => b[1] - a[1])) console.log(`${times}× ${name}`);
process.exitCode = failedRuns ? 1 : 0;
