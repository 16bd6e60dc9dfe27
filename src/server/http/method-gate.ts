import type http from 'node:http';
import { isApiTarget } from './direct-api.ts';
import { refuse } from './refusals.ts';

// The methods the server answers at all. TRACE, TRACK and CONNECT cannot even be turned into a web
// Request (the fetch standard forbids them), and WebDAV's methods mean nothing here; each is
// refused with 405 before any handler, so none of them reaches code that would fail on it. Pages are
// read, never written to: they take GET and HEAD only (forms post to the API). The API's own
// routes answer 405 with their methods for an ordinary method they do not take (http/method-check.ts).

/** Methods the API may take. */
const API_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
/** Methods pages, assets and other non-API paths take. */
const PAGE_METHODS = ['GET', 'HEAD'] as const;

/** The methods a request target takes. */
export function methodsFor(target: string): readonly string[] {
  return isApiTarget(target) ? API_METHODS : PAGE_METHODS;
}

/** Answers 405 with `Allow` and answers true when the request's method is not one its target takes. */
export function refuseUnknownMethod(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  const methods = methodsFor(req.url ?? '/');
  const method = req.method ?? 'GET';
  if (methods.includes(method)) return false;
  const allowed = methods.filter((name) => name !== 'OPTIONS');
  refuse(req, res, 405, `请求方法 ${method.slice(0, 16)} 不被接受：这个地址只接受 ${allowed.join('、')}`, {
    Allow: allowed.join(', '),
  });
  return true;
}
