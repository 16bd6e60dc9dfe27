// `npm run audit`: fails on a known high or critical advisory in the production dependencies,
// unless `audit-exceptions.json` accepts it after review (docs/architecture.md, "Dependencies"). A registry that
// does not answer audits (a mirror) is reported, and fails only with AUDIT_REQUIRED=true.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { type AuditException, type AuditReport, judgeAudit } from './lib/audit.ts';

const run = spawnSync('npm', ['audit', '--omit=dev', '--json'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
let report: AuditReport;
try {
  report = JSON.parse(run.stdout || '{}') as AuditReport;
} catch {
  report = { message: run.stderr.trim() || 'npm audit printed no report' };
}
const exceptions = JSON.parse(fs.readFileSync('audit-exceptions.json', 'utf8')) as AuditException[];
const verdict = judgeAudit(report, exceptions, new Date().toISOString().slice(0, 10));

for (const line of verdict.accepted) console.log(`accepted  ${line}`);
if (verdict.status === 'unavailable') {
  const required = process.env['AUDIT_REQUIRED'] === 'true';
  console.log(`The registry did not answer the audit: ${verdict.failures.join('; ')}`);
  console.log(required ? 'AUDIT_REQUIRED=true: failing.' : 'Not checked (set AUDIT_REQUIRED=true to fail instead).');
  process.exitCode = required ? 1 : 0;
} else if (verdict.status === 'failed') {
  for (const line of verdict.failures) console.log(`FAILED    ${line}`);
  console.log(
    '\nUpdate the package, or accept the advisory after review in audit-exceptions.json (docs/architecture.md, "Dependencies").',
  );
  process.exitCode = 1;
} else {
  console.log('No high or critical advisory in the production dependencies.');
}
