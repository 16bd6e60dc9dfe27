import { eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { createApp } from '../../src/server/app.ts';
import { systemClock } from '../../src/server/auth/clock.ts';
import { createSession } from '../../src/server/auth/sessions.ts';
import { accounts } from '../../src/server/db/schema/index.ts';
import { type ApiOperation, apiOperations } from '../../src/server/http/openapi.ts';
import { closeToolsPool } from '../../src/server/tools/runtime.ts';
import { closeSubsetPool } from '../../src/server/webfont/subset.ts';
import { insertAccount, type LibraryFixture, openFixtureLibrary } from '../helpers/font-library.ts';

// Hostile input against every route the app answers, read from the app itself (apiOperations), with
// values derived from each route's own zod schemas: wrong types, boundaries, NUL and lone surrogates,
// 1 MB strings, traversal, duplicated keys, wrong methods and content types, as a visitor and as a
// signed-in editor. No answer may be a 5xx, carry a stack trace, or take longer than 5 s.

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
    for (const name of fields) {
      for (const value of JSON_VALUES) {
        list.push({ method, url: base, body: JSON.stringify({ [name]: value }), type: 'application/json' });
      }
    }
  }
  // A method the route does not take.
  list.push({ method: method === 'GET' ? 'PATCH' : 'GET', url: base });
  return list;
}

describe('hostile input against every route', () => {
  test('the app names its routes and their schemas', () => {
    const operations = apiOperations(app);
    expect(operations.length).toBeGreaterThan(100);
    expect(operations.filter((operation) => operation.validations.length > 0).length).toBeGreaterThan(60);
  });

  test('no route answers 5xx, shows a stack trace or takes more than 5 s, signed in or not', async () => {
    const failures: string[] = [];
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
          const started = performance.now();
          const res = await app.request(probe.url, {
            method: probe.method,
            headers,
            ...(probe.body !== undefined ? { body: probe.body } : {}),
          });
          const text = await res.text();
          const ms = performance.now() - started;
          sent++;
          const body = probe.body === undefined ? '' : ` ${probe.type} ${probe.body.slice(0, 40)}`;
          const where = `${probe.method} ${probe.url.slice(0, 120)}${body}${login ? ' (signed in)' : ''}`;
          if (res.status >= 500) failures.push(`${where}: ${res.status} ${text.slice(0, 200)}`);
          if (/\n\s+at .+:\d+:\d+/.test(text)) failures.push(`${where}: stack trace in the answer`);
          if (ms > 5000) failures.push(`${where}: ${Math.round(ms)} ms`);
        }
      }
    }
    expect(sent).toBeGreaterThan(5000);
    expect(failures).toEqual([]);
  }, 900_000);
});
