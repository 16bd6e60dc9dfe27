// `npm test`: what CI runs. Independent steps run side by side and each one's output is printed
// whole when it ends, so logs stay readable:
//   build → ( checks: format, lint, types  ‖  dependency audit  ‖  unit, API and database tests  ‖  browser journeys )
// A failing step does not stop the others; the exit code is non-zero if any failed. A failed step's
// output is printed again at the very end, because CI logs are often read from their tail.
import { spawn } from 'node:child_process';
import { AUDIT_NOT_CHECKED_EXIT } from './lib/audit.ts';

interface Step {
  name: string;
  script: string;
  /** An exit code that means the step could not check anything (rather than that it found a fault). */
  notCheckedExit?: number;
}

interface Result {
  step: Step;
  passed: boolean;
  /** The step ran but could not check: passed unless required, and said so in the summary. */
  notChecked: boolean;
  output: Buffer;
}

// The dependency audit needs a registry that answers audits; a mirror without the endpoint leaves
// it unchecked, which keeps CI green but is printed beside every result. AUDIT_REQUIRED=true fails it.
const AUDIT_REQUIRED = process.env['AUDIT_REQUIRED'] === 'true';

function run(step: Step): Promise<Result> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', step.script], { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('close', (code) => {
      const seconds = Math.round((Date.now() - started) / 1000);
      const notChecked = step.notCheckedExit !== undefined && code === step.notCheckedExit;
      const passed = code === 0 || (notChecked && !AUDIT_REQUIRED);
      const output = Buffer.concat(chunks);
      process.stdout.write(`\n${banner(step, passed, notChecked)} in ${seconds} s ────\n`);
      process.stdout.write(output);
      resolve({ step, passed, notChecked, output });
    });
  });
}

function banner({ name, script }: Step, passed: boolean, notChecked = false): string {
  const verdict = notChecked
    ? `NOT CHECKED${passed ? '' : ', required (AUDIT_REQUIRED=true)'}`
    : passed
      ? 'passed'
      : 'FAILED';
  return `──── ${name} (npm run ${script}): ${verdict}`;
}

// The build comes first: the checks read the types it generates, and both test suites use it.
const build = await run({ name: 'build', script: 'build' });
const results = build.passed
  ? await Promise.all([
      run({ name: 'checks', script: 'check' }),
      run({ name: 'dependency audit', script: 'audit', notCheckedExit: AUDIT_NOT_CHECKED_EXIT }),
      run({ name: 'unit, API and database tests', script: 'test:unit' }),
      run({ name: 'browser journeys', script: 'test:e2e' }),
    ])
  : [build];
const failed = results.filter((result) => !result.passed);
for (const { step, output, notChecked } of failed) {
  process.stdout.write(`\n${banner(step, false, notChecked)}, its output again ────\n`);
  process.stdout.write(output);
}
const unchecked = results.filter((result) => result.notChecked).map(({ step }) => step.name);
const uncheckedNote = unchecked.length > 0 ? ` NOT CHECKED: ${unchecked.join(', ')} (see above).` : '';
console.log(
  failed.length === 0
    ? `\nAll test steps passed.${uncheckedNote}`
    : `\nFailed: ${failed.map(({ step }) => step.name).join(', ')}.${uncheckedNote}`,
);
process.exitCode = failed.length === 0 ? 0 : 1;
