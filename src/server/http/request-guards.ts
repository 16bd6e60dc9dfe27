import http from 'node:http';
import type { Duplex } from 'node:stream';
import { env } from '../env.ts';
import { addressKey, clientAddressOf } from './address-key.ts';
import { BodyGuard, type BodyGuardOptions, hasBody } from './body-guard.ts';
import { refuseUnknownMethod } from './method-gate.ts';
import { securityHeadersFor } from './security-headers.ts';

// What the HTTP server itself holds every request to, before any handler: the methods it takes
// (http/method-gate.ts) and the pace and number of request bodies (http/body-guard.ts); and what it
// answers to a request Node could not even parse. scripts/start.ts and scripts/api.ts both serve
// through these, inside the security headers.

/** A listener wrapped by {@link withRequestGuards}, with its body guard (tests and benchmarks read it). */
export type GuardedListener = http.RequestListener & { bodies: BodyGuard };

/** Wraps the server's listener with the method gate and the body guard. */
export function withRequestGuards(
  next: http.RequestListener,
  options: { body?: Partial<BodyGuardOptions> } = {},
): GuardedListener {
  const bodies = new BodyGuard(options.body);
  const trustProxy = env().TRUST_PROXY;
  const listener = (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (refuseUnknownMethod(req, res)) return;
    if (hasBody(req)) {
      const forwarded = req.headers['x-forwarded-for'];
      const from = clientAddressOf(
        Array.isArray(forwarded) ? forwarded[0] : forwarded,
        req.socket.remoteAddress,
        trustProxy,
      );
      if (!bodies.admit(req, res, addressKey(from))) return;
    }
    next(req, res);
  };
  return Object.assign(listener, { bodies });
}

const CLIENT_ERROR_STATUS: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  HPE_INVALID_METHOD: 405,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};
const CLIENT_ERROR_MESSAGES: Record<number, string> = {
  400: '请求格式不正确',
  405: '请求方法不被接受',
  408: '请求发送得太慢，连接已断开',
  431: '请求头太大',
};

/**
 * The server's own answer to a request Node could not parse (400), with a method it does not know
 * (405), whose headers were too large (431) or too slow (408): the same security headers as every other answer and a Chinese envelope,
 * then the connection ends. Node's default answer carries neither.
 */
function answerClientError(headersFor: (target: string) => Record<string, string>) {
  return (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = CLIENT_ERROR_STATUS[error.code ?? ''] ?? 400;
    const body = JSON.stringify({ code: String(status), message: CLIENT_ERROR_MESSAGES[status], data: null });
    const headers = {
      ...headersFor('/'),
      // A method Node does not know at all is one the site does not take either.
      ...(status === 405 ? { Allow: 'GET, HEAD, POST, PUT, PATCH, DELETE' } : {}),
      'Content-Type': 'application/json; charset=UTF-8',
      'Content-Length': String(Buffer.byteLength(body)),
      'Cache-Control': 'no-store',
      Connection: 'close',
    };
    const head = Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n${head}\r\n${body}`);
  };
}

/**
 * Sets what the server holds connections to: its own error answers with security headers, and no
 * flat limit on how long a request may take to arrive (Node's 300 s would cut off a large upload on
 * a slow line; the body guard times each body by its size and pace instead).
 */
export function guardServer<S extends http.Server>(server: S): S {
  server.requestTimeout = 0;
  server.on('clientError', answerClientError(securityHeadersFor()));
  return server;
}
