// Runs the test suites N times in a row and reports, per test, how often it failed:
//   npx node tests/repeat.ts [runs=20] [unit|e2e|all=all]
// The build must be current for the browser suite (npm run build). A flaky test shows up here as
// a test that fails in some runs and passes in others.
import { spawnSync } from 'node:child_process';
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
}

function vitest(out: string): boolean {
  const result = spawnSync('npx', ['vitest', 'run', '--reporter=json', `--outputFile=${out}`], { stdio: 'ignore' });
  const report = JSON.parse(fs.readFileSync(out, 'utf8')) as VitestReport;
  for (const file of report.testResults) {
    for (const test of file.assertionResults) {
      if (test.status === 'failed') count(`${path.relative(process.cwd(), file.name)} › ${test.fullName}`);
    }
  }
  return result.status === 0;
}

function playwright(out: string): boolean {
  const result = spawnSync('npx', ['playwright', 'test', '--reporter=json'], {
    env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: out },
    stdio: 'ignore',
  });
  const walk = (suite: PlaywrightSuite, prefix: string): void => {
    for (const spec of suite.specs ?? []) if (!spec.ok) count(`${prefix}${suite.title} › ${spec.title}`);
    for (const child of suite.suites ?? []) walk(child, `${prefix}${suite.title} › `);
  };
  for (const suite of (JSON.parse(fs.readFileSync(out, 'utf8')) as { suites: PlaywrightSuite[] }).suites)
    walk(suite, '');
  return result.status === 0;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'repeat-'));
for (let run = 1; run <= runs; run++) {
  const started = Date.now();
  let ok = true;
  if (which !== 'e2e') ok = vitest(path.join(dir, `vitest-${run}.json`)) && ok;
  if (which !== 'unit') ok = playwright(path.join(dir, `playwright-${run}.json`)) && ok;
  if (!ok) failedRuns++;
  console.log(`run ${run}/${runs}: ${ok ? 'passed' : 'FAILED'} in ${Math.round((Date.now() - started) / 1000)} s`);
}
console.log(`\n${runs - failedRuns} of ${runs} runs passed`);
for (const [name, times] of [...failures].sort((a, b) => b[1] - a[1])) console.log(`${times}× ${name}`);
process.exitCode = failedRuns ? 1 : 0;
