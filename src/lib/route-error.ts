// SPEC §8 for pages: a thrown error carries its status in statusCode, status or response.status;
// anything else is a 500.

/** The response header by which the error page tells the middleware its status. */
export const ERROR_STATUS_HEADER = 'x-route-error-status';

/** The HTTP status a thrown error stands for (400–599), default 500. */
export function errorStatus(error: unknown): number {
  if (typeof error === 'object' && error !== null) {
    const candidate = error as { statusCode?: unknown; status?: unknown; response?: { status?: unknown } };
    for (const value of [candidate.statusCode, candidate.status, candidate.response?.status]) {
      const status = Number(value);
      if (Number.isInteger(status) && status >= 400 && status <= 599) return status;
    }
  }
  return 500;
}

/** The Chinese line shown beside an error status on the error page. */
export function errorStatusMessage(status: number): string {
  if (status === 404) return '页面不存在';
  if (status === 403) return '没有权限访问这个页面';
  if (status === 401) return '请先登录';
  if (status >= 500) return '服务器出了点问题，请稍后再试';
  return '请求无法完成';
}

/** Thrown by a page whose route parameters are invalid; answered as 404 (SPEC §8). */
export class PageNotFoundError extends Error {
  override name = 'PageNotFoundError';
  readonly status = 404;
}
