// `npm test`: what CI runs. Independent steps run side by side and each one's output is printed
// whole when it ends, so logs stay readable:
//   build → ( checks: format, lint, types  ‖  dependency audit  ‖  unit, API and database tests  ‖  browser journeys )
// A failing step does not stop the others; the exit code is non-zero if any failed. A failed step's
// output is printed again at the very end, because CI logs are often read from their tail.
import { spawn } from 'node:child_process';

interface Step {
  name: string;
  script: string;
}

interface Result {
  step: Step;
  passed: boolean;
  output: Buffer;
}

function run(step: Step): Promise<Result> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', step.script], { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('close', (code) => {
      const seconds = Math.round((Date.now() - started) / 1000);
      const passed = code === 0;
      const output = Buffer.concat(chunks);
      process.stdout.write(`\n${banner(step, passed)} in ${seconds} s ────\n`);
      process.stdout.write(output);
      resolve({ step, passed, output });
    });
  });
}

function banner({ name, script }: Step, passed: boolean): string {
  return `──── ${name} (npm run ${script}): ${passed ? 'passed' : 'FAILED'}`;
}

// The build comes first: the checks read the types it generates, and both test suites use it.
const build = await run({ name: 'build', script: 'build' });
const results = build.passed
  ? await Promise.all([
      run({ name: 'checks', script: 'check' }),
      run({ name: 'dependency audit', script: 'audit' }),
      run({ name: 'unit, API and database tests', script: 'test:unit' }),
      run({ name: 'browser journeys', script: 'test:e2e' }),
    ])
  : [build];
const failed = results.filter((result) => !result.passed);
for (const { step, output } of failed) {
  process.stdout.write(`\n${banner(step, false)}, its output again ────\n`);
  process.stdout.write(output);
}
console.log(
  failed.length === 0 ? '\nAll test steps passed.' : `\nFailed: ${failed.map(({ step }) => step.name).join(', ')}.`,
);
process.exitCode = failed.length === 0 ? 0 : 1;
