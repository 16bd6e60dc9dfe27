// The decision behind `npm run audit`: which advisories in production dependencies fail CI. The
// report is `npm audit --omit=dev --json`; accepted advisories live in `audit-exceptions.json`, each
// with the reason it was accepted, who reviewed it and until when (an expired acceptance fails
// again, so every exception is looked at anew).

/** One vulnerable package of an `npm audit --json` report (auditReportVersion 2). */
interface ReportedPackage {
  name: string;
  severity: string;
  via: Array<string | { source?: number; title?: string; url?: string; severity?: string }>;
}

/** What `npm audit --json` prints: vulnerabilities, or an error when the registry cannot answer. */
export interface AuditReport {
  vulnerabilities?: Record<string, ReportedPackage>;
  statusCode?: number;
  message?: string;
  error?: { code?: string; summary?: string; detail?: string };
}

/** An advisory accepted after review. */
export interface AuditException {
  /** The advisory's address (https://github.com/advisories/GHSA-…), as the report gives it. */
  advisory: string;
  package: string;
  reason: string;
  reviewedBy: string;
  /** The last day the acceptance holds (YYYY-MM-DD). */
  until: string;
}

/** The verdict: pass or fail, what failed, and what was accepted. */
export interface AuditVerdict {
  status: 'passed' | 'failed' | 'unavailable';
  failures: string[];
  accepted: string[];
}

const SEVERE = new Set(['high', 'critical']);

/** Judges a report against the accepted exceptions on `today` (YYYY-MM-DD). */
export function judgeAudit(report: AuditReport, exceptions: AuditException[], today: string): AuditVerdict {
  if (!report.vulnerabilities) {
    return { status: 'unavailable', failures: [report.message ?? report.error?.summary ?? 'no report'], accepted: [] };
  }
  const failures: string[] = [];
  const accepted: string[] = [];
  for (const pkg of Object.values(report.vulnerabilities)) {
    for (const via of pkg.via) {
      // A string names the dependency the advisory came through; that package has its own entry.
      if (typeof via === 'string' || !SEVERE.has(via.severity ?? '')) continue;
      const line = `${pkg.name}: ${via.title ?? 'advisory'} (${via.severity}) ${via.url ?? ''}`.trim();
      const exception = exceptions.find((entry) => entry.advisory === via.url && entry.package === pkg.name);
      if (!exception) failures.push(line);
      else if (exception.until < today) failures.push(`${line}: accepted until ${exception.until}, look at it again`);
      else accepted.push(`${line}: accepted until ${exception.until} (${exception.reason}, ${exception.reviewedBy})`);
    }
  }
  return { status: failures.length > 0 ? 'failed' : 'passed', failures, accepted };
}
