// The embedded database's thread: PGlite runs here, off the server's event loop, and answers the
// PostgreSQL wire protocol that node-postgres speaks on the other side (embedded.ts). PGlite executes
// each statement synchronously in WebAssembly; on the main thread every statement held every other
// request for its whole length (the longest busy stretches of the soak's profile were PGlite's).
// Only PGlite and Node's own modules are imported: this file runs from source in every context.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import type { HostReply, HostRequest, HostSetup } from './embedded-protocol.ts';

const port = parentPort;
if (!port) throw new Error('embedded-host.ts runs as a worker thread');
const setup = workerData as HostSetup;

const QUERY = 0x51; // 'Q'
const SYNC = 0x53; // 'S'
const TERMINATE = 0x58; // 'X'
const READY_FOR_QUERY = 0x5a; // 'Z'

/** A frontend message as PGlite takes it: the type byte, the length, the body. */
function message(type: number, body: Uint8Array): Uint8Array {
  const bytes = new Uint8Array(5 + body.length);
  bytes[0] = type;
  new DataView(bytes.buffer).setInt32(1, 4 + body.length);
  bytes.set(body, 5);
  return bytes;
}
const SYNC_MESSAGE = message(SYNC, new Uint8Array());
const ROLLBACK_MESSAGE = message(QUERY, new TextEncoder().encode('ROLLBACK\0'));

/** What one client connection has sent that does not yet make a whole message. */
interface Connection {
  pending: Uint8Array;
  /** The startup message has no type byte; every message after it has one. */
  started: boolean;
}

const connections = new Map<number, Connection>();
let db: PGlite;
/** PGlite runs one statement at a time; every piece of work waits its turn here. */
let queue: Promise<void> = Promise.resolve();
/** The transaction status of the last ReadyForQuery: I idle, T in a transaction, E failed one. */
let status = 'I';
/** PGlite is one session: the first connection's startup answer is the answer to every later one. */
let startupAnswer: Uint8Array | undefined;

function post(reply: HostReply, transfer: ArrayBuffer[] = []): void {
  port?.postMessage(reply, transfer);
}

/**
 * Runs bytes through PGlite and collects its answer, each piece copied out of its WebAssembly memory.
 * Not `execProtocolRaw`: besides answering, that parses every message it sends back into a list kept
 * for `execProtocol`, which only `execProtocol` empties: the thread's heap grew by about 0.75 KB a
 * statement (56 → 89 MB over the soak's last quarter of an hour) for parsing no one read.
 */
async function run(bytes: Uint8Array): Promise<Uint8Array> {
  const pieces: Uint8Array[] = [];
  await db.execProtocolRawStream(bytes, { onRawData: (piece) => void pieces.push(piece.slice()) });
  const answer = concat(pieces);
  const last = answer.length - 6;
  if (last >= 0 && answer[last] === READY_FOR_QUERY) status = String.fromCharCode(answer[last + 5] ?? 0x49);
  return answer;
}

/**
 * Leaves the session as a new connection expects it: out of an extended query that failed before
 * its Sync, and out of any transaction the connection that left had open (a client that dropped
 * mid-transaction must not leave its writes for the next one to commit).
 */
async function reset(): Promise<void> {
  await run(SYNC_MESSAGE);
  if (status !== 'I') await run(ROLLBACK_MESSAGE);
}

/** Cuts whole messages off the front of what a connection has sent; the first is its startup. */
function wholeMessages(connection: Connection): { startup?: Uint8Array; messages: Uint8Array[] } {
  const cut: { startup?: Uint8Array; messages: Uint8Array[] } = { messages: [] };
  let at = 0;
  for (;;) {
    const left = connection.pending.length - at;
    const view = new DataView(connection.pending.buffer, connection.pending.byteOffset + at);
    if (left < (connection.started ? 5 : 4)) break;
    const length = connection.started ? view.getInt32(1) + 1 : view.getInt32(0);
    if (left < length) break;
    const bytes = connection.pending.subarray(at, at + length);
    if (connection.started) cut.messages.push(bytes);
    else cut.startup = bytes;
    connection.started = true;
    at += length;
  }
  connection.pending = connection.pending.slice(at);
  return cut;
}

/**
 * Runs what a connection sent, in order: its startup (run by PGlite once, then answered from
 * memory), the ordinary messages as one batch (node-postgres sends Parse, Bind, Describe, Execute
 * and Sync together), and Terminate as the end of the connection.
 */
async function serve(id: number, seq: number, cut: { startup?: Uint8Array; messages: Uint8Array[] }): Promise<void> {
  const answers: Uint8Array[] = [];
  if (cut.startup) {
    startupAnswer ??= await run(cut.startup);
    answers.push(startupAnswer.slice());
  }
  let batch: Uint8Array[] = [];
  for (const bytes of cut.messages) {
    if (bytes[0] !== TERMINATE) {
      batch.push(bytes);
      continue;
    }
    if (batch.length) answers.push(await run(concat(batch)));
    batch = [];
    await reset();
  }
  if (batch.length) answers.push(await run(concat(batch)));
  const bytes = concat(answers);
  post({ type: 'data', id, seq, bytes }, [bytes.buffer as ArrayBuffer]);
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1 && parts[0]) return parts[0];
  const whole = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    whole.set(part, at);
    at += part.length;
  }
  return whole;
}

function enqueue(work: () => Promise<void>, onError: (error: Error) => void): void {
  queue = queue.then(work).catch((error: unknown) => onError(error as Error));
}

port.on('message', (request: HostRequest) => {
  switch (request.type) {
    case 'open':
      connections.set(request.id, { pending: new Uint8Array(), started: false });
      return;
    case 'data': {
      const connection = connections.get(request.id);
      if (!connection) return;
      connection.pending = connection.pending.length ? concat([connection.pending, request.bytes]) : request.bytes;
      const cut = wholeMessages(connection);
      enqueue(
        () => serve(request.id, request.seq, cut),
        (error) => post({ type: 'error', id: request.id, seq: request.seq, message: error.message }),
      );
      return;
    }
    case 'close': {
      // A connection that went without Terminate (destroyed) is reset like one that said goodbye.
      const connection = connections.get(request.id);
      connections.delete(request.id);
      if (connection?.started) enqueue(reset, () => undefined);
      return;
    }
    case 'shutdown':
      enqueue(
        async () => {
          if (!db.closed) {
            await db.exec('CHECKPOINT');
            await db.close();
          }
          post({ type: 'closed' });
        },
        (error) => post({ type: 'closed', message: error.message }),
      );
      return;
  }
});

try {
  const startParams = setup.sharedBuffersMB
    ? { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${setup.sharedBuffersMB}MB`] }
    : {};
  db =
    setup.dir === 'memory://'
      ? new PGlite({ ...startParams, ...(setup.loadDataDir ? { loadDataDir: new Blob([setup.loadDataDir]) } : {}) })
      : new PGlite(setup.dir, startParams);
  await db.waitReady;
  post({ type: 'ready' });
} catch (error) {
  post({ type: 'failed', message: (error as Error).message ?? String(error) });
}
