import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { AUDIT_NOT_CHECKED_EXIT, type AuditException, type AuditReport, judgeAudit } from '../../scripts/lib/audit.ts';

// The shape `npm audit --omit=dev --json` prints (auditReportVersion 2), trimmed to what is read.
const ADVISORY = 'https://github.com/advisories/GHSA-xxxx-0000-high';
const report: AuditReport = {
  vulnerabilities: {
    'tar-fs': {
      name: 'tar-fs',
      severity: 'high',
      via: [{ source: 1101, title: 'tar-fs can extract outside the folder', url: ADVISORY, severity: 'high' }],
    },
    archiver: { name: 'archiver', severity: 'high', via: ['tar-fs'] },
    'brace-expansion': {
      name: 'brace-expansion',
      severity: 'low',
      via: [{ source: 1102, title: 'ReDoS', url: 'https://github.com/advisories/GHSA-low', severity: 'low' }],
    },
  },
};
const accepted = (until: string): AuditException => ({
  advisory: ADVISORY,
  package: 'tar-fs',
  reason: 'only extracts archives the site wrote itself',
  reviewedBy: 'security review 2026-11',
  until,
});

describe('judgeAudit', () => {
  test('fails on a high advisory, once, at the package that carries it; low ones pass', () => {
    const verdict = judgeAudit(report, [], '2026-11-25');
    expect(verdict.status).toBe('failed');
    expect(verdict.failures).toEqual([`tar-fs: tar-fs can extract outside the folder (high) ${ADVISORY}`]);
  });

  test('passes an advisory accepted after review, and fails it again once the acceptance ends', () => {
    expect(judgeAudit(report, [accepted('2026-12-31')], '2026-11-25')).toMatchObject({
      status: 'passed',
      accepted: [expect.stringContaining('accepted until 2026-12-31')],
    });
    const lapsed = judgeAudit(report, [accepted('2026-11-24')], '2026-11-25');
    expect(lapsed.status).toBe('failed');
    expect(lapsed.failures[0]).toMatch(/accepted until 2026-11-24, look at it again/);
  });

  test('an acceptance for another package does not cover this one', () => {
    expect(judgeAudit(report, [{ ...accepted('2026-12-31'), package: 'archiver' }], '2026-11-25').status).toBe(
      'failed',
    );
  });

  test('says when the registry gave no report (a mirror without the audit endpoint)', () => {
    const verdict = judgeAudit({ statusCode: 405, message: '405 Method Not Allowed' }, [], '2026-11-25');
    expect(verdict).toEqual({ status: 'unavailable', failures: ['405 Method Not Allowed'], accepted: [], checked: 0 });
  });

  test('an unreachable registry checked nothing; a broken install or no lockfile fails', () => {
    expect(
      judgeAudit({ error: { code: 'ENOTFOUND', summary: 'getaddrinfo ENOTFOUND' } }, [], '2026-11-25'),
    ).toMatchObject({ status: 'unavailable', checked: 0 });
    expect(judgeAudit({ error: { code: 'ENOLOCK', summary: 'requires a lockfile' } }, [], '2026-11-25')).toEqual({
      status: 'failed',
      failures: ['requires a lockfile'],
      accepted: [],
      checked: 0,
    });
    expect(judgeAudit({}, [], '2026-11-25').status).toBe('failed');
  });

  test('counts the production packages the registry checked', () => {
    expect(judgeAudit({ vulnerabilities: {}, metadata: { dependencies: { prod: 312 } } }, [], '2026-11-25')).toEqual({
      status: 'passed',
      failures: [],
      accepted: [],
      checked: 312,
    });
  });
});

// `npm run audit` itself, with the registry's answers played by a stand-in `npm` on PATH: its exit
// code and last line are what CI reads.
describe('npm run audit', () => {
  function runAudit(answer: unknown): { status: number | null; last: string } {
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-npm-'));
    const npm = path.join(bin, 'npm');
    fs.writeFileSync(path.join(bin, 'answer.json'), JSON.stringify(answer));
    fs.writeFileSync(npm, `#!/bin/sh\ncat "${path.join(bin, 'answer.json')}"\n`, { mode: 0o755 });
    try {
      const run = spawnSync(process.execPath, ['scripts/audit.ts'], {
        encoding: 'utf8',
        env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env['PATH'] ?? ''}` },
      });
      const lines = run.stdout.trim().split('\n');
      return { status: run.status, last: lines[lines.length - 1] ?? '' };
    } finally {
      fs.rmSync(bin, { recursive: true, force: true });
    }
  }

  test('exits with its own code and says NOT CHECKED when the registry refuses the audit call', () => {
    const refused = runAudit({ statusCode: 405, message: '405 Method Not Allowed - POST …/advisories/bulk' });
    expect(refused).toEqual({
      status: AUDIT_NOT_CHECKED_EXIT,
      last: 'Dependency audit: NOT CHECKED (the production dependencies were not compared with any advisory).',
    });
  });

  test('fails on an advisory and passes a clean report, saying how much it checked', () => {
    expect(runAudit(report)).toEqual({ status: 1, last: 'Dependency audit: FAILED.' });
    expect(runAudit({ vulnerabilities: {}, metadata: { dependencies: { prod: 312 } } })).toEqual({
      status: 0,
      last: 'Dependency audit: checked 312 production packages, no high or critical advisory.',
    });
  });
});
