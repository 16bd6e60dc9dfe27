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
  metadata?: { dependencies?: { prod?: number; total?: number } };
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

/**
 * The verdict. `passed` and `failed` mean the registry was asked and answered; `unavailable` means it
 * did not check at all (the registry refused the audit endpoint or could not be reached), which is
 * neither a pass nor a failure and is reported as such.
 */
export interface AuditVerdict {
  status: 'passed' | 'failed' | 'unavailable';
  failures: string[];
  accepted: string[];
  /** Production packages the registry checked (0 unless it answered). */
  checked: number;
}

/**
 * The exit code of `npm run audit` when nothing was checked: not 0, since nothing was shown to be
 * safe, and not 1, so that `npm test` tells it apart from a known advisory (scripts/test.ts).
 */
export const AUDIT_NOT_CHECKED_EXIT = 3;

/** Errors that mean the registry could not be reached, not that our dependencies are broken. */
const NETWORK_ERRORS = new Set(['ENOTFOUND', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EAI_AGAIN', 'EHOSTUNREACH']);

/**
 * What a report without vulnerabilities means: a registry that answered the audit call with an
 * HTTP error (a mirror without the endpoint answers 404 or 405) or could not be reached did not
 * check; any other error (no lockfile, a broken install, output that is not a report) is ours to fix
 * and fails.
 */
function withoutReport(report: AuditReport): AuditVerdict {
  const reason = report.message || report.error?.summary || report.error?.code || 'npm audit printed no report';
  const refused = typeof report.statusCode === 'number' && report.statusCode >= 400;
  const unreachable = NETWORK_ERRORS.has(report.error?.code ?? '');
  return { status: refused || unreachable ? 'unavailable' : 'failed', failures: [reason], accepted: [], checked: 0 };
}

const SEVERE = new Set(['high', 'critical']);

/** Judges a report against the accepted exceptions on `today` (YYYY-MM-DD). */
export function judgeAudit(report: AuditReport, exceptions: AuditException[], today: string): AuditVerdict {
  if (!report.vulnerabilities) return withoutReport(report);
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
  const checked = report.metadata?.dependencies?.prod ?? report.metadata?.dependencies?.total ?? 0;
  return { status: failures.length > 0 ? 'failed' : 'passed', failures, accepted, checked };
}
