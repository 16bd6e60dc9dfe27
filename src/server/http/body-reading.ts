import type { IncomingMessage } from 'node:http';

// Which request bodies a route has begun to read. The server's body guard (body-guard.ts) judges a
// body's pace only from then on: before it, a slow answer is the server's own time (a login checked,
// a disk waited for), not the client's; the body gate (body-limit.ts), which sees the route's first
// read, marks it. Owned by this module, for the one process.
const reading = new WeakSet<IncomingMessage>();

/** Notes that a route has begun reading this request's body. */
export function markBodyRead(req: IncomingMessage | undefined): void {
  if (req) reading.add(req);
}

/** True once a route has begun reading this request's body. */
export function bodyBeingRead(req: IncomingMessage): boolean {
  return reading.has(req);
}
