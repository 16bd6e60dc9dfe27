// `npm test`: what CI runs. Independent steps run side by side and each one's output is printed
// whole when it ends, so logs stay readable:
//   build → ( checks: format, lint, types  ‖  unit, API and database tests  ‖  browser journeys )
// A failing step does not stop the others; the exit code is non-zero if any failed.
import { spawn } from 'node:child_process';

interface Step {
  name: string;
  script: string;
}

function run({ name, script }: Step): Promise<boolean> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('close', (code) => {
      const seconds = Math.round((Date.now() - started) / 1000);
      process.stdout.write(
        `\n──── ${name} (npm run ${script}): ${code === 0 ? 'passed' : 'FAILED'} in ${seconds} s ────\n`,
      );
      process.stdout.write(Buffer.concat(chunks));
      resolve(code === 0);
    });
  });
}

// The build comes first: the checks read the types it generates, and both test suites use it.
const built = await run({ name: 'build', script: 'build' });
const results = built
  ? await Promise.all([
      run({ name: 'checks', script: 'check' }),
      run({ name: 'unit, API and database tests', script: 'test:unit' }),
      run({ name: 'browser journeys', script: 'test:e2e' }),
    ])
  : [false];
const passed = results.every(Boolean);
console.log(passed ? '\nAll test steps passed.' : '\nSome test steps failed (see above).');
process.exitCode = passed ? 0 : 1;
