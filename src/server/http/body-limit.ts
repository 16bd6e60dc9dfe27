import type { IncomingMessage } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { markBodyRead } from './body-reading.ts';
import { ApiError, badRequest, payloadTooLarge } from './envelope.ts';
import { formFieldsOf } from './multipart.ts';

// The body gate: every request body the API reads passes through it, whatever its type, capped at
// its route's limit while it is read (src/server/body-limits.ts lists them). A body is never read
// here: the route reads it when it wants it, so a call that needs a login answers 401 without taking
// a byte of what was sent. A declared length over the limit is refused before anything is read; a
// chunked body as soon as its count passes the limit. Nothing here closes a connection: what is
// left of a refused body is drained or the connection closed by the server's guard
// (http/request-guards.ts) once the answer is written.

/** How a route takes its body: buffered data (JSON, forms), an upload it streams, or a presigned PUT. */
export type BodyKind = 'data' | 'upload' | 'signed';

/** The largest body a route takes, and how it takes it. */
export interface BodyPolicy {
  kind: BodyKind;
  maxBytes: number;
}

const KB = 1024;
/** The limit of a body sent where none is expected: a path that does not exist, a GET with a body. */
const UNLISTED: BodyPolicy = { kind: 'data', maxBytes: 4 * KB };
/** What an upload route takes that is not its multipart form (it is refused, after this much at most). */
const UPLOAD_OTHER_MAX = 16 * KB;
/** Buffered bodies above this size share one budget of memory; smaller ones are bounded by their count. */
const SMALL_BODY = 16 * KB;
/** Memory that buffered bodies in flight may hold together. */
export const BUFFERED_BUDGET_BYTES = 16 * 1024 * KB;

/** A stream that pulls only when it is read: a stream fills its queue on its own otherwise. */
const LAZY: QueuingStrategy<Uint8Array> = { highWaterMark: 0 };

// The process's budget of buffered bodies, owned by this module.
let reserved = 0;

/** Bytes of buffered bodies reserved right now (tests and benchmarks read it). */
export function bufferedBodyBytes(): number {
  return reserved;
}

const tooLarge = (max: number) =>
  payloadTooLarge(
    `请求内容过大，这个接口最多接受 ${max >= 1024 * KB ? `${Math.round(max / 1024 / KB)} MB` : `${Math.ceil(max / KB)} KB`}`,
  );
const busy = () => new ApiError(503, '503', '服务器正在处理很多请求，请稍后再试', { 'Retry-After': '5' });
const incomplete = () => badRequest('请求内容没有传完，连接已断开，请重新提交');

/** The policy of the route a request reached ('METHOD path' in the table), or the one for unlisted bodies. */
function policyOf(c: Context, policies: Readonly<Record<string, BodyPolicy>>): BodyPolicy {
  for (const route of matchedRoutes(c)) {
    if (route.method !== c.req.method) continue;
    const policy = policies[`${route.method} ${route.path}`];
    if (policy) return policy;
  }
  return UNLISTED;
}

/** The declared Content-Length, or undefined for a chunked body. */
function declaredLength(c: Context): number | undefined {
  const header = c.req.header('content-length');
  if (header === undefined) return undefined;
  const value = Number(header);
  return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/**
 * The body gate for the API app: each body capped by its route's policy as it is read, buffered
 * bodies held to one memory budget (503 past it), and multipart forms sent to a call that takes no
 * file read into their fields alone (http/multipart.ts) and handed on as a URL-encoded form.
 */
export function requestBodies(policies: Readonly<Record<string, BodyPolicy>>): MiddlewareHandler {
  return async (c, next) => {
    const source = c.req.raw.body;
    if (!source || c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const policy = policyOf(c, policies);
    const type = c.req.header('content-type') ?? '';
    const multipart = /^multipart\/form-data/i.test(type);
    const max = policy.kind === 'upload' && !multipart ? UPLOAD_OTHER_MAX : policy.maxBytes;
    const declared = declaredLength(c);
    if (declared !== undefined && declared > max) throw tooLarge(max);

    // A buffered body reserves its size in the budget before a byte is read (as it arrives when its
    // length was not declared); uploads stream to storage and hold only a chunk at a time.
    let held = 0;
    const hold = (bytes: number): boolean => {
      if (policy.kind !== 'data' || bytes <= SMALL_BODY || bytes <= held) return true;
      if (reserved - held + bytes > BUFFERED_BUDGET_BYTES) return false;
      reserved += bytes - held;
      held = bytes;
      return true;
    };
    if (declared !== undefined && !hold(declared)) throw busy();

    let failure: ApiError | undefined;
    const reader = source.getReader();
    let received = 0;
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    const counted = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          markBodyRead(incoming);
          let chunk: ReadableStreamReadResult<Uint8Array>;
          try {
            chunk = await reader.read();
          } catch {
            // The client went away or was cut off by the server's guard: its fault, said as such.
            failure ??= incomplete();
            controller.error(failure);
            return;
          }
          if (chunk.done) {
            controller.close();
            return;
          }
          received += chunk.value.byteLength;
          if (received > max) failure = tooLarge(max);
          else if (!hold(received)) failure = busy();
          // The rest of the body is left unread: the server's guard drains or closes the connection
          // after the answer, which a cancelled read would cut off before it is sent.
          if (failure) controller.error(failure);
          else controller.enqueue(chunk.value);
        },
        cancel() {
          reader.releaseLock();
        },
      },
      LAZY,
    );

    let body: ReadableStream<Uint8Array> = counted;
    const headers = new Headers(c.req.raw.headers);
    if (policy.kind === 'data' && multipart) {
      // Read only when the route reads its form, as every other body.
      let fields: Promise<Uint8Array> | undefined;
      body = new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            try {
              fields ??= formFieldsOf(counted, type);
              const bytes = await fields;
              if (bytes.byteLength > 0) controller.enqueue(bytes);
              controller.close();
            } catch (error) {
              failure ??= error instanceof ApiError ? error : badRequest('表单格式不正确，请重新提交');
              controller.error(failure);
            }
          },
        },
        LAZY,
      );
      headers.set('content-type', 'application/x-www-form-urlencoded;charset=UTF-8');
      headers.delete('content-length');
    }
    c.req.raw = new Request(c.req.raw, { body, headers, duplex: 'half' } as RequestInit);
    try {
      await next();
    } finally {
      reserved -= held;
      held = 0;
    }
    // Whatever the route made of a refused body (a parse error, nothing at all), the answer is the
    // refusal, unless the route refused it for the same reason in its own words (an upload's limit).
    if (failure && c.res.status !== failure.status) throw failure;
  };
}
