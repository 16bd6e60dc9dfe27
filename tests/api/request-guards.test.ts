import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { createApp } from '../../src/server/app.ts';
import { resetEnv } from '../../src/server/env.ts';
import { bufferedBodyBytes } from '../../src/server/http/body-limit.ts';
import { registerApiApp, withDirectApi } from '../../src/server/http/direct-api.ts';
import { type GuardedListener, guardServer, withRequestGuards } from '../../src/server/http/request-guards.ts';
import { SECURITY_HEADERS, withSecurityHeaders } from '../../src/server/http/security-headers.ts';
import { log } from '../../src/server/log.ts';
import { closeToolsPool } from '../../src/server/tools/runtime.ts';
import { closeSubsetPool } from '../../src/server/webfont/subset.ts';
import { type LibraryFixture, openFixtureLibrary } from '../helpers/font-library.ts';

// The server's own rules, over real sockets, with the API app served as scripts/start.ts serves it
// (pages are not built here: a non-API path that gets past the guards answers 404). The body guard
// runs with small numbers so that its limits are reached by a handful of connections.

let library: LibraryFixture;
let server: http.Server;
let listener: GuardedListener;
let port: number;
const WINDOW_MS = 300;

beforeAll(async () => {
  library = await openFixtureLibrary('request-guards');
  // Behind a proxy, so each test names its client's address (X-Forwarded-For), IPv6 included.
  process.env['TRUST_PROXY'] = 'true';
  resetEnv();
  registerApiApp(createApp());
  const pages: http.RequestListener = (_req, res) => {
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=UTF-8' });
    res.end('page');
  };
  listener = withRequestGuards(withDirectApi(pages), {
    body: { perAddress: 2, total: 4, windowMs: WINDOW_MS, minBytesPerSecond: 4096, drainBytes: 64 * 1024 },
  });
  server = guardServer(http.createServer(withSecurityHeaders(listener)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as net.AddressInfo).port;
}, 60_000);

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await closeToolsPool();
  await closeSubsetPool();
  await library?.close();
});

/** A raw connection: what it was answered, and whether the server ended it. */
interface Connection {
  socket: net.Socket;
  text: () => string;
  /** Resolves once the answer holds `count` status lines. */
  answers: (count: number) => Promise<string[]>;
  closed: Promise<void>;
}

function connect(): Connection {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  let text = '';
  const waiting: Array<() => void> = [];
  socket.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
    for (const check of waiting.splice(0)) check();
  });
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  // A status line may follow the previous answer's body directly (a body with a length ends without a newline).
  const statusLines = () => [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => match[1] ?? '');
  return {
    socket,
    text: () => text,
    closed,
    answers: (count) =>
      new Promise((resolve) => {
        const check = () => {
          if (statusLines().length >= count || socket.destroyed) resolve(statusLines());
          else waiting.push(check);
        };
        socket.on('close', check);
        check();
      }),
  };
}

function head(method: string, path: string, from: string, headers: Record<string, string | number> = {}): string {
  const lines = Object.entries({ Host: 'localhost', 'X-Forwarded-For': from, ...headers }).map(
    ([name, value]) => `${name}: ${value}`,
  );
  return `${method} ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`;
}

/** Keeps writing 64 KB chunks until the connection ends; answers how many bytes went out. */
function flood(connection: Connection): Promise<number> {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  let sent = 0;
  return new Promise((resolve) => {
    const pump = () => {
      while (!connection.socket.destroyed && connection.socket.writable) {
        sent += chunk.byteLength;
        if (!connection.socket.write(chunk)) return void connection.socket.once('drain', pump);
      }
    };
    connection.closed.then(() => resolve(sent));
    pump();
  });
}

function headerOf(text: string, name: string): string | undefined {
  return new RegExp(`^${name}: (.*)$`, 'im').exec(text)?.[1]?.trim();
}

describe('methods', () => {
  test('TRACE, unknown and WebDAV methods answer 405 everywhere, pages take only GET and HEAD, none is logged', async () => {
    const spies = (['error', 'warn'] as const).map((level) => vi.spyOn(log(), level));
    const cases: Array<[string, string, string]> = [
      ['TRACE', '/web/api/fontOverride/getFontList', 'GET, HEAD, POST, PUT, PATCH, DELETE'],
      ['TRACK', '/tools/api/upload', 'GET, HEAD, POST, PUT, PATCH, DELETE'],
      ['BREW', '/web/api/login', 'GET, HEAD, POST, PUT, PATCH, DELETE'],
      ['PROPFIND', '/files/x', 'GET, HEAD, POST, PUT, PATCH, DELETE'],
      ['TRACE', '/', 'GET, HEAD'],
      ['POST', '/font', 'GET, HEAD'],
      ['PUT', '/help', 'GET, HEAD'],
      ['DELETE', '/news/1', 'GET, HEAD'],
      ['OPTIONS', '/', 'GET, HEAD'],
    ];
    for (const [method, path, allow] of cases) {
      const connection = connect();
      connection.socket.write(head(method, path, '10.9.0.1'));
      expect(await connection.answers(1), `${method} ${path}`).toEqual(['405']);
      expect(headerOf(connection.text(), 'Allow'), `${method} ${path}`).toBe(allow);
      expect(headerOf(connection.text(), 'X-Frame-Options')).toBe('DENY');
      await connection.closed;
    }
    for (const spy of spies) {
      expect(spy).not.toHaveBeenCalled();
      spy.mockRestore();
    }
  });

  test("Node's own answers to a request it cannot parse, or whose headers are too large, carry the security headers", async () => {
    const broken = connect();
    broken.socket.write('GET /\u0001 HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(await broken.answers(1)).toEqual(['400']);
    const huge = connect();
    huge.socket.write(`GET / HTTP/1.1\r\nHost: x\r\nX-Long: ${'a'.repeat(40_000)}\r\n\r\n`);
    expect(await huge.answers(1)).toEqual(['431']);
    for (const connection of [broken, huge]) {
      await connection.closed;
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
        expect(headerOf(connection.text(), name), name).toBe(value);
      }
      expect(headerOf(connection.text(), 'Content-Security-Policy')).toContain("frame-ancestors 'none'");
      expect(connection.text()).toMatch(/"message":"请求/);
    }
  });
});

describe('bodies answered early', () => {
  test("a visitor's endless form to a call that needs a login is answered 401 and its connection closed", async () => {
    const connection = connect();
    connection.socket.write(
      head('POST', '/web/api/dingzhi/move', '10.9.1.1', {
        'Content-Type': 'multipart/form-data; boundary=b',
        'Transfer-Encoding': 'chunked',
      }),
    );
    // Chunked framing around endless bytes: the server never sees an end.
    connection.socket.write('10000\r\n');
    const sent = flood(connection);
    expect(await connection.answers(1)).toEqual(['401']);
    expect(headerOf(connection.text(), 'Connection')).toBe('close');
    await connection.closed;
    expect(await sent).toBeGreaterThan(0);
  });

  test('a declared body over the route’s limit is answered 413 before it is read, and its connection closed', async () => {
    const connection = connect();
    connection.socket.write(
      head('POST', '/web/api/login', '10.9.1.2', { 'Content-Type': 'application/json', 'Content-Length': 300 << 20 }),
    );
    const sent = flood(connection);
    expect(await connection.answers(1)).toEqual(['413']);
    expect(headerOf(connection.text(), 'Connection')).toBe('close');
    await connection.closed;
    expect(await sent).toBeLessThan(300 << 20);
  });

  test('a small body answered before it was read is drained, and the connection serves the next request', async () => {
    const connection = connect();
    connection.socket.write(
      head('POST', '/web/api/dingzhi/move', '10.9.1.3', { 'Content-Type': 'application/json', 'Content-Length': 8000 }),
    );
    expect(await connection.answers(1)).toEqual(['401']);
    expect(headerOf(connection.text(), 'Connection')).not.toBe('close');
    connection.socket.write(Buffer.alloc(8000, 0x20));
    connection.socket.write(head('GET', '/web/api/no/such/call', '10.9.1.3'));
    expect(await connection.answers(2)).toEqual(['401', '404']);
    connection.socket.destroy();
  });
});

describe('open bodies', () => {
  // Each test starts once the bodies of the tests before it have ended with their connections.
  beforeEach(async () => {
    await expect.poll(() => listener.bodies.open).toBe(0);
  });

  /** Starts a body of `length` bytes to a call that reads it, and sends only its first bytes. */
  function openBody(from: string, length = 100_000): Connection {
    const connection = connect();
    connection.socket.write(
      head('POST', '/webfont/http', from, { 'Content-Type': 'application/json', 'Content-Length': length }),
    );
    connection.socket.write('[{"gno":"zcool-kuaile","text":"');
    return connection;
  }

  test('an address may send two bodies at once, an IPv6 /64 counting as one address; the third is refused 429', async () => {
    const first = openBody('2001:db8:5:1::1');
    const second = openBody('2001:db8:5:1::2');
    await expect.poll(() => listener.bodies.open).toBe(2);
    const third = openBody('2001:db8:5:1:ffff::3');
    expect(await third.answers(1)).toEqual(['429']);
    expect(headerOf(third.text(), 'Retry-After')).toBe('5');
    await third.closed;
    // Another network is served meanwhile.
    const elsewhere = connect();
    elsewhere.socket.write(
      head('POST', '/webfont/http', '2001:db8:5:2::1', { 'Content-Type': 'application/json', 'Content-Length': 2 }),
    );
    elsewhere.socket.write('[]');
    expect(await elsewhere.answers(1)).toEqual(['400']);
    elsewhere.socket.destroy();
    for (const connection of [first, second]) connection.socket.destroy();
    await expect.poll(() => listener.bodies.open).toBe(0);
  });

  test('the server takes four bodies at once from everyone; the fifth is refused 503', async () => {
    const open = ['10.9.2.1', '10.9.2.2', '10.9.2.3', '10.9.2.4'].map((from) => openBody(from));
    await expect.poll(() => listener.bodies.open).toBe(4);
    const fifth = openBody('10.9.2.5');
    expect(await fifth.answers(1)).toEqual(['503']);
    for (const connection of open) connection.socket.destroy();
    await expect.poll(() => listener.bodies.open).toBe(0);
  });

  test('a body that stops arriving is dropped with 408 and its connection closed; one sent at pace is served', async () => {
    const spy = vi.spyOn(log(), 'error');
    const stalled = openBody('10.9.3.1');
    await expect.poll(() => bufferedBodyBytes()).toBe(100_000);
    expect(await stalled.answers(1)).toEqual(['408']);
    expect(stalled.text()).toContain('请求内容发送得太慢');
    await stalled.closed;
    // The handler that was reading it let go: nothing of it is held any more.
    await expect.poll(() => bufferedBodyBytes()).toBe(0);
    // A small body (read in one piece when its route asks) is held to the same pace.
    const small = openBody('10.9.3.3', 10_000);
    expect(await small.answers(1)).toEqual(['408']);
    await small.closed;
    // A body whose bytes keep coming is not judged by its length, however long it takes in all: here
    // 8 parts of 12 KB, one each half window (24 KB a window, six times the pace asked for).
    const steady = connect();
    const body = JSON.stringify(Array.from({ length: 8 }, () => ({ gno: 'zcool-kuaile', text: '永'.repeat(4000) })));
    const bytes = Buffer.from(body);
    steady.socket.write(
      head('POST', '/webfont/http', '10.9.3.2', { 'Content-Type': 'application/json', 'Content-Length': bytes.length }),
    );
    const part = Math.ceil(bytes.length / 8);
    for (let at = 0; at < bytes.length; at += part) {
      await new Promise((resolve) => setTimeout(resolve, WINDOW_MS / 2));
      steady.socket.write(bytes.subarray(at, at + part));
    }
    expect(await steady.answers(1)).toEqual(['200']);
    steady.socket.destroy();
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
  });
});
