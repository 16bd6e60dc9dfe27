import type http from 'node:http';
import { getRequestListener } from '@hono/node-server';

/** What the Node server needs of the API app. */
interface FetchApp {
  fetch(request: Request, env: object): Response | Promise<Response>;
}

/** The URL prefixes the API answers, whichever way a request reaches it. */
export const API_PREFIXES = ['/web/api', '/api/v1', '/captcha', '/webfont', '/tools/api'] as const;
/** Paths the API app also answers: files from storage and the health probes. */
const OTHER_API_PATHS = ['/files', '/healthz', '/readyz'] as const;

// The page bundle builds the app (src/server/app.ts) and scripts/start.ts serves requests; they
// load the server's modules apart, so the one app is handed over on globalThis.
const SLOT = Symbol.for('font-alliance.api-app');

/** Makes `app` the process's API app, so that the Node server can hand requests to it directly. */
export function registerApiApp(app: FetchApp): void {
  (globalThis as { [SLOT]?: FetchApp })[SLOT] = app;
}

function registeredApiApp(): FetchApp | undefined {
  return (globalThis as { [SLOT]?: FetchApp })[SLOT];
}

/** True when a request target (path and query) belongs to the API app. */
export function isApiTarget(target: string): boolean {
  for (const prefix of [...API_PREFIXES, ...OTHER_API_PATHS]) {
    if (!target.startsWith(prefix)) continue;
    const next = target.charAt(prefix.length);
    if (next === '' || next === '/' || next === '?') return true;
  }
  return false;
}

/**
 * Hands API requests straight to the API app once the page bundle has built it, so that an API call
 * does not pay for the page framework's routing and middleware; pages and assets go on to `handler`.
 * Before the app exists (the first requests after start) everything takes the page route, which
 * mounts the same app.
 */
export function withDirectApi(handler: http.RequestListener): http.RequestListener {
  let listener: ReturnType<typeof getRequestListener> | undefined;
  let listening: FetchApp | undefined;
  return (req, res) => {
    const app = registeredApiApp();
    if (!app || !isApiTarget(req.url ?? '/')) return handler(req, res);
    if (listening !== app) {
      listening = app;
      // Global Request and Response stay Node's own: the page framework shares them.
      listener = getRequestListener((request, env) => app.fetch(request, env), { overrideGlobalObjects: false });
    }
    void listener?.(req, res);
  };
}
