// `npm run audit`: fails on a known high or critical advisory in the production dependencies,
// unless `audit-exceptions.json` accepts it after review (docs/architecture.md, "Dependencies"). Its last
// line always says whether the registry checked: a registry that refuses the audit endpoint (a
// mirror) or cannot be reached checked nothing, and the script then exits with
// AUDIT_NOT_CHECKED_EXIT, which `npm test` reports as not checked (a failure with AUDIT_REQUIRED=true).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { AUDIT_NOT_CHECKED_EXIT, type AuditException, type AuditReport, judgeAudit } from './lib/audit.ts';

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
  console.log(`The registry did not check: ${verdict.failures.join('; ')}`);
  console.log('Dependency audit: NOT CHECKED (the production dependencies were not compared with any advisory).');
  process.exitCode = AUDIT_NOT_CHECKED_EXIT;
} else if (verdict.status === 'failed') {
  for (const line of verdict.failures) console.log(`FAILED    ${line}`);
  console.log(
    '\nUpdate the package, or accept the advisory after review in audit-exceptions.json (docs/architecture.md, "Dependencies").',
  );
  console.log('Dependency audit: FAILED.');
  process.exitCode = 1;
} else {
  console.log(
    `Dependency audit: checked ${verdict.checked} production packages, no high or critical advisory${verdict.accepted.length > 0 ? ` beyond ${verdict.accepted.length} accepted` : ''}.`,
  );
}
