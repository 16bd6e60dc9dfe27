import type http from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { TOKEN_COOKIE, TOKEN_HEADER } from '../auth/middleware.ts';
import { log } from '../log.ts';
import { crossSiteCookieWrite } from './csrf.ts';

/** What the Node server needs of the API app. */
interface FetchApp {
  fetch(request: Request, env: object): Response | Promise<Response>;
}

/** The URL prefixes the API answers, whichever way a request reaches it. */
export const API_PREFIXES = ['/web/api', '/api/v1', '/captcha', '/webfont', '/tools/api'] as const;
/** Paths the API app also answers: files from storage, the health probes and the API's description. */
const OTHER_API_PATHS = ['/files', '/healthz', '/readyz', '/api/openapi.json'] as const;

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

/** Bodies up to this size are read before the app sees them (a subset or login call), larger ones streamed. */
const SMALL_BODY_BYTES = 64 * 1024;

/** The bytes of a request body that declared a small length (events: an async iterator costs more). */
function readSmallBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)));
    req.once('error', reject);
    // A request ended before its body (the client gone, or dropped by the server's guard) rejects too.
    req.once('close', () => reject(new Error('request closed before its body ended')));
  });
}

/**
 * A small body as one chunk, read from the Node request only when the route first reads it: a web
 * stream over a Node stream costs more than a small body itself, and a body read before its route
 * asks would be read before the route checks who calls (http/body-limit.ts).
 */
function lazySmallBody(req: http.IncomingMessage): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const bytes = await readSmallBody(req);
        if (bytes.byteLength > 0) controller.enqueue(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
        controller.close();
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * A web Request for a Node request, as the page adapter makes it: the Host header names the origin
 * (the CSRF check compares it with Origin). A body already read (`body`) is handed on as it is; one
 * that declares a small length is read in one piece when the route asks for it, others are streamed.
 */
function toRequest(req: http.IncomingMessage, body?: Buffer): Request {
  const url = requestUrl(req);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (name.startsWith(':') || value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  const method = req.method ?? 'GET';
  if (method === 'GET' || method === 'HEAD') return new Request(url, { method, headers });
  if (body) return new Request(url, { method, headers, body: new Uint8Array(body) });
  if (smallBody(req) !== undefined) {
    return new Request(url, { method, headers, body: lazySmallBody(req), duplex: 'half' } as RequestInit);
  }
  return new Request(url, {
    method,
    headers,
    body: Readable.toWeb(req) as ReadableStream,
    duplex: 'half',
  } as RequestInit);
}

function requestUrl(req: http.IncomingMessage): URL {
  try {
    return new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
  } catch {
    return new URL(req.url ?? '/', 'http://localhost');
  }
}

/** The length a body declares when it is small and sent in one piece, else undefined. */
function smallBody(req: http.IncomingMessage): number | undefined {
  const declared = Number(req.headers['content-length']);
  return Number.isInteger(declared) && declared <= SMALL_BODY_BYTES && !req.headers['transfer-encoding']
    ? declared
    : undefined;
}

/**
 * Writes a web Response to a Node response. A JSON answer is already whole in memory, so it goes
 * out in one write with its headers; other bodies (files, downloads) are streamed with back-pressure.
 */
async function send(res: http.ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of response.headers) {
    if (name === 'set-cookie') continue;
    headers[name] = value;
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  if (response.body && headers['content-type']?.includes('application/json')) {
    const body = Buffer.from(await response.arrayBuffer());
    headers['content-length'] = String(body.byteLength);
    res.writeHead(response.status, headers);
    res.end(body);
    return;
  }
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  // A client that goes away ends the pipeline, which cancels the body (a download stops reading).
  await pipeline(Readable.fromWeb(response.body as never), res);
}

/**
 * Answers the API app keeps whole for a call it may receive again (method, path, query and a small
 * body), served by the Node server before the app: a hit is a map lookup and one socket write. The
 * owner stores them (webfont/answers.ts); the app answers misses, and keeps their answers itself.
 */
export interface KeptAnswers {
  method: 'POST';
  /** The path, without query. */
  path: string;
  /** Bodies declared larger are never looked up. */
  maxBodyBytes: number;
  contentType: string;
  lookup(search: string, body: string): Uint8Array | undefined;
}

const LOGIN_COOKIE = new RegExp(`(?:^|;\\s*)${TOKEN_COOKIE}=`);

/** The kept answers that may serve `req` (its method, path and declared body), if any. */
function keptFor(req: http.IncomingMessage, kept: readonly KeptAnswers[]): KeptAnswers | undefined {
  if (kept.length === 0 || req.method === 'GET' || req.method === 'HEAD') return undefined;
  const target = req.url ?? '/';
  const mark = target.indexOf('?');
  const pathname = mark === -1 ? target : target.slice(0, mark);
  const found = kept.find((answers) => answers.method === req.method && answers.path === pathname);
  const declared = smallBody(req);
  if (!found || declared === undefined || declared > found.maxBodyBytes) return undefined;
  // What the API app would refuse (a cross-site write by cookie) goes to the app to be refused.
  const header = (name: string) => {
    const value = req.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  };
  if (crossSiteCookieWrite(req.method ?? 'POST', header, () => requestUrl(req).origin)) return undefined;
  return found;
}

/** Serves `req` from `kept` when its answer is there; otherwise hands the body it read on to the app. */
async function answerKept(
  app: FetchApp,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  kept: KeptAnswers,
): Promise<void> {
  const body = await readSmallBody(req);
  const target = req.url ?? '/';
  const mark = target.indexOf('?');
  const answer = kept.lookup(mark === -1 ? '' : target.slice(mark), body.toString('utf8'));
  if (!answer) return send(res, await app.fetch(toRequest(req, body), { incoming: req }));
  const headers: http.OutgoingHttpHeaders = { 'Content-Type': kept.contentType, 'Content-Length': answer.byteLength };
  // As the app does for any answer to a request that carries a login (app.ts).
  if (req.headers[TOKEN_HEADER] || LOGIN_COOKIE.test(req.headers.cookie ?? '')) {
    headers['Cache-Control'] = 'private, no-store';
  }
  res.writeHead(200, headers);
  res.end(answer);
}

/**
 * Hands API requests straight to the API app once the page bundle has built it, so that an API call
 * does not pay for the page framework's routing and middleware; pages and assets go on to `handler`.
 * Before the app exists (the first requests after start) everything takes the page route, which
 * mounts the same app. Calls with `kept` answers are served from them when they can be.
 */
export function withDirectApi(handler: http.RequestListener, kept: readonly KeptAnswers[] = []): http.RequestListener {
  return (req, res) => {
    const app = registeredApiApp();
    if (!app || !isApiTarget(req.url ?? '/')) return handler(req, res);
    void (async () => {
      try {
        const answers = keptFor(req, kept);
        if (answers) await answerKept(app, req, res, answers);
        else await send(res, await app.fetch(toRequest(req), { incoming: req }));
      } catch (error) {
        // The app answers its own errors; what gets here is a client gone mid-answer (or cut off by
        // the server's guard, which answered it), or a fault in the plumbing above.
        if (res.writableEnded) {
          // Answered already (the guard's refusal): the connection ends after that answer.
        } else if (req.socket.destroyed) {
          res.destroy();
        } else if (!res.headersSent) {
          log().error({ err: error, path: req.url }, 'API request failed before it was answered');
          res.writeHead(500, { 'Content-Type': 'application/json; charset=UTF-8' });
          res.end(JSON.stringify({ code: '500', message: '服务器出错了，请稍后再试', data: null }));
        } else {
          res.destroy();
        }
      }
    })();
  };
}
