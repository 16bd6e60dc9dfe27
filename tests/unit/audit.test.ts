import { describe, expect, test } from 'vitest';
import { type AuditException, type AuditReport, judgeAudit } from '../../scripts/lib/audit.ts';

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
    expect(verdict).toEqual({ status: 'unavailable', failures: ['405 Method Not Allowed'], accepted: [] });
  });
});
