// A real HTTP server for client tests: each route answers what the test tells it to.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the server answers for a request. */
export interface Answer {
  status?: number;
  body?: unknown;
  delayMs?: number;
  headers?: Record<string, string>;
  /** Ends the connection without an answer, as a server that died does. */
  hangUp?: boolean;
}

/** A request the server received. */
export interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A running test server. */
export interface StatusServer {
  url: string;
  received: Received[];
  close: () => Promise<void>;
}

/** Starts a server on a free local port; `answer` decides each response. */
export async function startStatusServer(answer: (request: Received) => Answer): Promise<StatusServer> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: Received = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(request);
      const { status = 200, body, delayMs = 0, headers = {}, hangUp = false } = answer(request);
      setTimeout(() => {
        if (res.destroyed) return;
        if (hangUp) {
          req.socket.destroy();
          return;
        }
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
        res.end(body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body));
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
