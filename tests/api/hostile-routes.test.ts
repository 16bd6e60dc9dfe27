import http from 'node:http';
import type net from 'node:net';
import { eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { z } from 'zod';
import { createApp } from '../../src/server/app.ts';
import { systemClock } from '../../src/server/auth/clock.ts';
import { createSession } from '../../src/server/auth/sessions.ts';
import { accounts } from '../../src/server/db/schema/index.ts';
import { registerApiApp, withDirectApi } from '../../src/server/http/direct-api.ts';
import { type ApiOperation, apiOperations } from '../../src/server/http/openapi.ts';
import { guardServer, withRequestGuards } from '../../src/server/http/request-guards.ts';
import { withSecurityHeaders } from '../../src/server/http/security-headers.ts';
import { log } from '../../src/server/log.ts';
import { closeToolsPool } from '../../src/server/tools/runtime.ts';
import { closeSubsetPool } from '../../src/server/webfont/subset.ts';
import { insertAccount, type LibraryFixture, openFixtureLibrary } from '../helpers/font-library.ts';

// Hostile input against every route the app answers, read from the app itself (apiOperations), with
// values derived from each route's own zod schemas: wrong types, boundaries, NUL and lone surrogates,
// 1 MB strings, traversal, duplicated keys, wrong methods and content types, multipart forms with a
// real boundary (fields, files, NUL in names and values), as a visitor and as a signed-in editor; and
// every method, TRACE and unknown ones included, on every route through the server as it is served.
// No answer may be a 5xx or carry a stack trace, no log line may carry one, and every refusal says
// what is wrong in Chinese, without schema words. Time is not judged here (tests/bench/ measures it).

let library: LibraryFixture;
let app: Hono;
let editor: number;

beforeAll(async () => {
  library = await openFixtureLibrary('hostile-routes');
  app = createApp();
  editor = await insertAccount(library.db, 'fuzz-editor@example.com');
  await library.db.update(accounts).set({ role: 'editor' }).where(eq(accounts.id, editor));
});

afterAll(async () => {
  await closeToolsPool();
  await closeSubsetPool();
  await library?.close();
});

const MEGABYTE = 'x'.repeat(1024 * 1024);
const NUL = 'a\u0000b';
const LONE = '\ud800';
const TRAVERSAL = '../../../../etc/passwd';
/** Values for a query or path parameter (URL-encoded where sent). */
const TEXT_VALUES = [
  '',
  '0',
  '-1',
  '1.5',
  '1e309',
  'NaN',
  '99999999999999999999',
  TRAVERSAL,
  '%',
  '[]',
  NUL,
  'x'.repeat(100_000),
];
/** Values for a JSON field, of every type. */
const JSON_VALUES: unknown[] = [
  null,
  true,
  -1,
  0,
  2 ** 53,
  Number.MAX_VALUE,
  '',
  NUL,
  LONE,
  MEGABYTE,
  TRAVERSAL,
  [],
  [null],
  {},
  { a: { b: [1] } },
];

type JsonSchema = { type?: string; properties?: Record<string, JsonSchema>; enum?: unknown[] };

function propertiesOf(operation: ApiOperation, target: string): string[] {
  const validation = operation.validations.find((v) => v.target === target);
  if (!validation) return [];
  const json = z.toJSONSchema(validation.schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return Object.keys(json.properties ?? {});
}

/** The path with each parameter set to `value` (encoded). */
function pathWith(operation: ApiOperation, value: string): string {
  return operation.path.replace(/:(\w+)(\{[^}]*\})?/g, encodeURIComponent(value) || '1').replace(/\*$/, 'x');
}

interface Probe {
  method: string;
  url: string;
  body?: string;
  type?: string;
}

/** The requests one operation gets, before the login header is added. */
function probes(operation: ApiOperation): Probe[] {
  const { method } = operation;
  const list: Probe[] = [];
  for (const value of ['1', '0', TRAVERSAL, 'x'.repeat(2000), '😀'])
    list.push({ method, url: pathWith(operation, value) });
  const base = pathWith(operation, '1');
  const query = propertiesOf(operation, 'query');
  for (const name of query.length > 0 ? query : ['id']) {
    for (const value of TEXT_VALUES) list.push({ method, url: `${base}?${name}=${encodeURIComponent(value)}` });
    list.push({ method, url: `${base}?${name}=1&${name}=2` });
    list.push({ method, url: `${base}?${name}[]=1&${name}[x]=2` });
  }
  if (method !== 'GET' && method !== 'HEAD') {
    for (const body of ['{', '[]', '"x"', '123', 'null', '{}', JSON.stringify({ a: MEGABYTE })]) {
      list.push({ method, url: base, body, type: 'application/json' });
    }
    list.push({ method, url: base, body: 'a=1&a=2', type: 'application/x-www-form-urlencoded' });
    list.push({ method, url: base, body: 'plain', type: 'text/plain' });
    list.push({
      method,
      url: base,
      body: '--x\r\nContent-Disposition: form-data; name="file"\r\n\r\nabc',
      type: 'multipart/form-data',
    });
    const fields = [...propertiesOf(operation, 'json'), ...propertiesOf(operation, 'form')];
    // Multipart forms with their boundary: the route's fields with hostile values, a file where none
    // is taken, a file name with a NUL, a field far larger than any form needs, a form cut short.
    for (const value of [NUL, LONE, '', 'x'.repeat(100_000), TRAVERSAL]) {
      list.push(
        multipart(
          method,
          base,
          [...(fields.length > 0 ? fields : ['id']), 'title'].map((name) => ({ name, value })),
        ),
      );
    }
    list.push(multipart(method, base, [{ name: 'file', value: 'abc', fileName: 'font.ttf' }]));
    list.push(multipart(method, base, [{ name: 'file', value: 'abc', fileName: 'a\u0000b.ttf' }]));
    list.push(multipart(method, base, [{ name: 'video', value: 'abc', fileName: 'a\u0000b.mp4' }]));
    list.push({
      ...multipart(method, base, [{ name: 'note', value: 'abc' }]),
      body: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="note"\r\n\r\nab`,
    });
    for (const name of fields) {
      for (const value of JSON_VALUES) {
        list.push({ method, url: base, body: JSON.stringify({ [name]: value }), type: 'application/json' });
      }
    }
  }
  // A method the route does not take.
  list.push({ method: method === 'GET' ? 'PATCH' : 'GET', url: base });
  // The captcha reads its JSON by hand (AJ-Captcha's shape), so its fields are named here.
  if (operation.path.startsWith('/captcha/')) {
    for (const name of ['captchaType', 'token', 'pointJson', 'trackJson', 'account', 'clientUid']) {
      for (const value of [NUL, `13800138000${NUL}`, LONE, MEGABYTE.slice(0, 40_000), 5, null]) {
        list.push({ method, url: base, body: JSON.stringify({ [name]: value }), type: 'application/json' });
      }
    }
  }
  return list;
}

const BOUNDARY = 'hostile-boundary';

/** A multipart/form-data probe with a real boundary: fields, and files where `fileName` is given. */
function multipart(
  method: string,
  url: string,
  parts: Array<{ name: string; value: string; fileName?: string }>,
): Probe {
  const body = parts
    .map(({ name, value, fileName }) => {
      const disposition = `form-data; name="${name}"${fileName === undefined ? '' : `; filename="${fileName}"`}`;
      const type = fileName === undefined ? '' : 'Content-Type: application/octet-stream\r\n';
      return `--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n${value}\r\n`;
    })
    .join('');
  return { method, url, body: `${body}--${BOUNDARY}--\r\n`, type: `multipart/form-data; boundary=${BOUNDARY}` };
}

/** What is wrong with a refusal's message, if anything: not Chinese, schema words, a label said twice. */
function messageProblem(message: unknown): string | null {
  if (typeof message !== 'string' || !/\p{Script=Han}/u.test(message))
    return `not a Chinese message: ${String(message)}`;
  // What the message quotes (a path, a value in “”) is the caller's own text, not the message's words.
  const prose = message.replace(/“[^”]*”/g, '').replace(/\/[\w./{}:?=&%-]*/g, '');
  if (/\b(string|number|boolean|undefined|array|object|int)\b|期望|实际接收|<=|>=|Invalid|Expected/.test(prose)) {
    return `schema words: ${message}`;
  }
  if (/（([^（）]+)）（\1）/.test(message)) return `a label twice: ${message}`;
  return null;
}

/** Log calls that carry a stack trace (as pino would write them: errors with their stacks). */
function stacksIn(calls: unknown[][]): string[] {
  const text = (value: unknown) =>
    JSON.stringify(value, (_key, item: unknown) =>
      item instanceof Error ? { message: item.message, stack: item.stack } : item,
    );
  return calls.map(text).filter((line) => /\\n\s+at .+:\d+:\d+/.test(line));
}

describe('hostile input against every route', () => {
  test('the app names its routes and their schemas', () => {
    const operations = apiOperations(app);
    expect(operations.length).toBeGreaterThan(100);
    expect(operations.filter((operation) => operation.validations.length > 0).length).toBeGreaterThan(60);
  });

  test('no route answers 5xx or shows a stack trace, signed in or not, and every refusal is said in Chinese', async () => {
    const failures: string[] = [];
    const logged = (['error', 'warn'] as const).map((level) => vi.spyOn(log(), level));
    let sent = 0;
    // Every probe of an operation is sent as a visitor, then with a fresh editor session (a probe
    // may log out or change the account, so sessions are not shared between operations).
    for (const operation of apiOperations(app)) {
      const { token } = await createSession(library.db, editor, { clock: systemClock, ttlSeconds: 3600 });
      for (const login of [undefined, token]) {
        for (const probe of probes(operation)) {
          const headers: Record<string, string> = {};
          if (probe.type) headers['content-type'] = probe.type;
          if (login) headers['alliance-authenticate'] = login;
          const res = await app.request(probe.url, {
            method: probe.method,
            headers,
            ...(probe.body !== undefined ? { body: probe.body } : {}),
          });
          const text = await res.text();
          sent++;
          const body = probe.body === undefined ? '' : ` ${probe.type} ${probe.body.slice(0, 40)}`;
          const where = `${probe.method} ${probe.url.slice(0, 120)}${body}${login ? ' (signed in)' : ''}`;
          if (res.status >= 500) failures.push(`${where}: ${res.status} ${text.slice(0, 200)}`);
          if (/\n\s+at .+:\d+:\d+/.test(text)) failures.push(`${where}: stack trace in the answer`);
          if (res.status >= 400 && res.headers.get('content-type')?.includes('json')) {
            const answer = JSON.parse(text) as { message?: unknown; repMsg?: unknown };
            const problem = messageProblem(answer.message ?? answer.repMsg);
            if (problem) failures.push(`${where}: ${problem}`);
          }
        }
      }
    }
    for (const line of stacksIn(logged.flatMap((spy) => spy.mock.calls)))
      failures.push(`logged: ${line.slice(0, 300)}`);
    for (const spy of logged) spy.mockRestore();
    expect(sent).toBeGreaterThan(5000);
    expect([...new Set(failures)]).toEqual([]);
  }, 900_000);

  test('every method, TRACE and unknown ones included, on every route answers below 500 through the server, unlogged', async () => {
    registerApiApp(app);
    const pages: http.RequestListener = (_req, res) => {
      res.writeHead(404);
      res.end();
    };
    const server = guardServer(http.createServer(withSecurityHeaders(withRequestGuards(withDirectApi(pages)))));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    const logged = (['error', 'warn'] as const).map((level) => vi.spyOn(log(), level));
    const failures: string[] = [];
    const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'TRACK', 'PROPFIND', 'BREW'];
    const paths = new Set(apiOperations(app).map((operation) => pathWith(operation, '1')));
    try {
      for (const path of paths) {
        for (const method of methods) {
          const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
            const req = http.request({ host: '127.0.0.1', port, path, method, agent: false }, (res) => {
              let body = '';
              res.on('data', (chunk: Buffer) => (body += chunk.toString()));
              res.on('end', () => resolve({ status: res.statusCode ?? 0, text: body }));
            });
            req.on('error', reject);
            req.end();
          });
          if (status >= 500 || status === 0) failures.push(`${method} ${path}: ${status} ${text.slice(0, 200)}`);
          if (/\n\s+at .+:\d+:\d+/.test(text)) failures.push(`${method} ${path}: stack trace in the answer`);
          if (!['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].includes(method) && status !== 405) {
            failures.push(`${method} ${path}: ${status}, not 405`);
          }
        }
      }
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    for (const spy of logged) {
      for (const call of spy.mock.calls) failures.push(`logged: ${JSON.stringify(call).slice(0, 300)}`);
      spy.mockRestore();
    }
    expect(failures).toEqual([]);
  }, 300_000);
});
