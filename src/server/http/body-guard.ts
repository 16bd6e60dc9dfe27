import type http from 'node:http';
import type { Socket } from 'node:net';
import { bodyBeingRead } from './body-reading.ts';
import { refuse } from './refusals.ts';

// Request bodies while they arrive, at the server: how many are open per address and in all, how
// fast each arrives, and what happens to the rest of one the handler answered before reading it
// all. Sizes are the body gate's (http/body-limit.ts, per route); this keeps a crowd of slow or
// unfinished bodies from holding the server's memory and sockets.
//
// - An address (an IPv6 /64, http/address-key.ts) may send `perAddress` bodies at once, everyone
//   together `total`; past that a body is refused (429, 503) before a byte of it is read.
// - While the server waits for a body, it must arrive at `minBytesPerSecond` or more, judged over
//   each `windowMs`: a body of n bytes therefore has about n / minBytesPerSecond seconds plus one
//   window, and one that stalls is dropped (408) within two windows. Time the server itself spends
//   before its route reads the body (checking a login, a slow disk; body-reading.ts) is not held
//   against the client.
// - A body answered before it was read in full (401, 413, 429…) is drained when little of it is
//   left, so the connection carries the next request, and otherwise the answer says
//   `Connection: close` and the connection ends after it.

/** The numbers the guard keeps to. */
export interface BodyGuardOptions {
  perAddress: number;
  total: number;
  minBytesPerSecond: number;
  windowMs: number;
  /** At most this much of an answered body is read to keep its connection; more closes it. */
  drainBytes: number;
}

export const BODY_GUARD_DEFAULTS: BodyGuardOptions = {
  perAddress: 8,
  total: 128,
  minBytesPerSecond: 4 * 1024,
  windowMs: 5_000,
  drainBytes: 64 * 1024,
};

interface OpenBody {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  socket: Socket;
  address: string;
  declared: number | undefined;
  /** socket.bytesRead when the body began. */
  base: number;
  windowAt: number;
  windowBytes: number;
  answered: boolean;
  /** Stops listening for the body's end. */
  release: () => void;
}

/** True when a request carries a body (a length above zero, or chunks). */
export function hasBody(req: http.IncomingMessage): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = Number(req.headers['content-length'] ?? 0);
  return Number.isFinite(length) && length > 0;
}

/** The open bodies of one server, by request; one timer judges their pace while any is open. */
export class BodyGuard {
  readonly #options: BodyGuardOptions;
  readonly #open = new Map<http.IncomingMessage, OpenBody>();
  readonly #perAddress = new Map<string, number>();
  #timer: NodeJS.Timeout | undefined;

  constructor(options: Partial<BodyGuardOptions> = {}) {
    this.#options = { ...BODY_GUARD_DEFAULTS, ...options };
  }

  /** Bodies open now (tests and benchmarks read it). */
  get open(): number {
    return this.#open.size;
  }

  /**
   * Takes a request with a body under watch, or refuses it (429 per address, 503 in all) and answers
   * false. Call before any handler sees the request.
   */
  admit(req: http.IncomingMessage, res: http.ServerResponse, address: string): boolean {
    const mine = this.#perAddress.get(address) ?? 0;
    if (mine >= this.#options.perAddress) {
      refuse(req, res, 429, '同时发送的请求太多，请等前面的完成后再试', { 'Retry-After': '5' });
      return false;
    }
    if (this.#open.size >= this.#options.total) {
      refuse(req, res, 503, '服务器正在接收很多请求，请稍后再试', { 'Retry-After': '5' });
      return false;
    }
    const length = Number(req.headers['content-length']);
    const entry: OpenBody = {
      req,
      res,
      socket: req.socket,
      address,
      declared: req.headers['transfer-encoding'] === undefined && Number.isFinite(length) ? length : undefined,
      base: req.socket.bytesRead,
      windowAt: Date.now(),
      windowBytes: 0,
      answered: false,
      release: () => undefined,
    };
    this.#open.set(req, entry);
    this.#perAddress.set(address, mine + 1);
    // A body ends when it has all arrived, or with its connection (an answered request is no longer
    // aborted by Node when its socket closes, so the socket is watched too).
    const done = () => this.#forget(entry);
    req.once('end', done);
    req.once('close', done);
    entry.socket.once('close', done);
    entry.release = () => {
      req.off('end', done);
      req.off('close', done);
      entry.socket.off('close', done);
    };
    this.#watchAnswer(entry);
    this.#timer ??= setInterval(() => this.#judge(), Math.max(50, Math.floor(this.#options.windowMs / 5)));
    this.#timer.unref();
    return true;
  }

  #forget(entry: OpenBody): void {
    if (this.#open.get(entry.req) !== entry) return;
    this.#open.delete(entry.req);
    entry.release();
    const left = (this.#perAddress.get(entry.address) ?? 1) - 1;
    if (left > 0) this.#perAddress.set(entry.address, left);
    else this.#perAddress.delete(entry.address);
    if (this.#open.size === 0 && this.#timer) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }

  /**
   * Decides, as the answer's head is written, what becomes of a body not read in full: drained when
   * little is left (the connection goes on), otherwise the answer closes the connection.
   */
  #watchAnswer(entry: OpenBody): void {
    const { req, res } = entry;
    const { drainBytes } = this.#options;
    const writeHead = res.writeHead;
    res.writeHead = function (this: http.ServerResponse, ...args: unknown[]) {
      if (!req.complete && !entry.answered) {
        entry.answered = true;
        const left = entry.declared === undefined ? undefined : entry.declared - arrivedOf(entry);
        if (left !== undefined && left <= drainBytes) {
          res.once('finish', () => drain(req));
        } else {
          res.setHeader('Connection', 'close');
          res.once('finish', () => entry.socket.destroySoon());
        }
      }
      return (writeHead as (...values: unknown[]) => http.ServerResponse).apply(this, args);
    } as typeof res.writeHead;
  }

  /** Drops every open body that arrives too slowly while the server waits for it. */
  #judge(): void {
    const now = Date.now();
    const { windowMs, minBytesPerSecond } = this.#options;
    for (const entry of this.#open.values()) {
      const arrived = arrivedOf(entry);
      // Until its route reads the body, and while bytes wait for the handler to take them, the server
      // is the slow side: the window restarts. Bodies the API never reads are judged once answered.
      const waitingOnServer = !bodyBeingRead(entry.req) || entry.req.readableLength > 0;
      if (!entry.answered && waitingOnServer) {
        entry.windowAt = now;
        entry.windowBytes = arrived;
        continue;
      }
      const elapsed = now - entry.windowAt;
      if (elapsed < windowMs) continue;
      if (((arrived - entry.windowBytes) * 1000) / elapsed < minBytesPerSecond) {
        this.#drop(entry);
        continue;
      }
      entry.windowAt = now;
      entry.windowBytes = arrived;
    }
  }

  #drop(entry: OpenBody): void {
    this.#forget(entry);
    // The request is ended with its connection: a handler still reading the body gets an error at
    // once (and lets go of what it held) instead of waiting for bytes that will not come, since Node
    // does not abort a request whose answer was written when its socket closes.
    const end = () => {
      entry.req.destroy();
      entry.socket.destroy();
    };
    if (entry.res.headersSent) {
      end();
      return;
    }
    refuse(entry.req, entry.res, 408, '请求内容发送得太慢，连接已断开，请在网络通畅时重新提交');
    if (entry.res.writableFinished) end();
    else entry.res.once('finish', end);
  }
}

function arrivedOf(entry: OpenBody): number {
  return entry.socket.bytesRead - entry.base;
}

/**
 * Reads and discards the rest of an answered body, so the connection can carry the next request.
 * The handler's own reader (if any) is let go first: it would otherwise hold the body paused.
 */
function drain(req: http.IncomingMessage): void {
  if (req.complete || req.destroyed) return;
  req.removeAllListeners('data');
  req.resume();
}
