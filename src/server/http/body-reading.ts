import type { IncomingMessage } from 'node:http';

// Which request bodies a route has begun to read. The server's body guard (body-guard.ts) judges a
// body's pace only from then on: before it, a slow answer is the server's own time (a login checked,
// a disk waited for), not the client's; the body gate (body-limit.ts), which sees the route's first
// read, marks it. The Astro bundle and scripts/start.ts each load a copy of this module (the gate
// runs in the bundle's, the guard in the server's), so the one set of the process lives on
// globalThis: with a set per copy, the guard never saw a body being read and never dropped one.
const SLOT = Symbol.for('font-alliance.body-reading');
const slot = globalThis as { [SLOT]?: WeakSet<IncomingMessage> };
slot[SLOT] ??= new WeakSet<IncomingMessage>();
const reading = slot[SLOT];

/** Notes that a route has begun reading this request's body. */
export function markBodyRead(req: IncomingMessage | undefined): void {
  if (req) reading.add(req);
}

/** True once a route has begun reading this request's body. */
export function bodyBeingRead(req: IncomingMessage): boolean {
  return reading.has(req);
}
