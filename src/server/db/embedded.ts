// The embedded database as node-postgres sees it: PGlite runs in a thread of its own
// (embedded-host.ts) and each pool connection is a stream of wire-protocol bytes to it, so the
// server talks to PGlite exactly as it talks to a PostgreSQL server, and no statement runs on the
// event loop. No socket is opened: the bytes go by message to the thread, and nothing outside the
// process can connect.
import { Duplex } from 'node:stream';
import type { HeapInfo } from 'node:v8';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { serverSource } from '../paths.ts';
import type { HostReply, HostRequest, HostSetup } from './embedded-protocol.ts';

// Run from its source file on Node 24 (types stripped), under the built server as in development.
const HOST_FILE = serverSource('db', 'embedded-host.ts');

/** A running embedded database: a pool of one connection (PGlite is one session) and its end. */
export interface EmbeddedDatabase {
  pool: pg.Pool;
  /** The V8 heap of the database's thread (PGlite's JavaScript side; its WebAssembly memory apart). */
  heapStatistics(): Promise<HeapInfo>;
  /** Ends the pool, checkpoints and closes PGlite, and stops its thread. */
  close(): Promise<void>;
}

/** Starts PGlite in its thread; rejects with PGlite's reason when it cannot open the folder. */
export async function startEmbedded(setup: HostSetup): Promise<EmbeddedDatabase> {
  const worker = new Worker(HOST_FILE, {
    workerData: setup,
    name: 'embedded database',
    // A script run with `--input-type=module --eval` passes the flag on, and a thread with a file
    // refuses it; otherwise the thread takes the process's flags as every worker does.
    ...(process.execArgv.some((arg) => arg.startsWith('--input-type'))
      ? { execArgv: process.execArgv.filter((arg) => !arg.startsWith('--input-type')) }
      : {}),
  });
  const host = new Host(worker);
  await host.ready;
  const pool = new pg.Pool({
    // PGlite's only role and database; one connection, kept for the life of the pool.
    user: 'postgres',
    database: 'postgres',
    max: 1,
    idleTimeoutMillis: 0,
    stream: () => host.connect(),
  });
  return {
    pool,
    heapStatistics: () => host.heapStatistics(),
    close: async () => {
      await pool.end();
      await host.close();
    },
  };
}

/** The server's side of the database thread: numbered connections and the thread's life. */
class Host {
  readonly ready: Promise<void>;
  readonly #worker: Worker;
  readonly #connections = new Map<number, HostConnection>();
  #nextId = 1;
  /** Writes sent and writes answered: while some are unanswered the thread keeps the process alive. */
  #sent = 0;
  #answered = 0;
  #stopped: Error | undefined;
  #closing = false;
  /** Questions about the thread itself (its heap) waiting for an answer. */
  #asking = 0;
  #onClosed: ((reply: { message?: string }) => void) | undefined;

  constructor(worker: Worker) {
    this.#worker = worker;
    this.ready = new Promise((resolve, reject) => {
      const onReply = (reply: HostReply) => {
        if (reply.type === 'ready') {
          this.#settle();
          resolve();
        } else if (reply.type === 'failed') {
          reject(new Error(`PGlite could not open the database: ${reply.message}`));
          void worker.terminate();
        } else this.#receive(reply);
      };
      worker.on('message', onReply);
      worker.on('error', (error) => {
        reject(error);
        this.#stop(error);
      });
      worker.on('exit', (code) => {
        const error = new Error(`the embedded database's thread stopped (exit code ${code})`);
        reject(error);
        this.#stop(error);
      });
    });
  }

  /** A new client connection (node-postgres's stream). */
  connect(): HostConnection {
    const connection = new HostConnection(this.#nextId++, this);
    if (this.#stopped) queueMicrotask(() => connection.destroy(this.#stopped));
    else {
      this.#connections.set(connection.id, connection);
      this.#send({ type: 'open', id: connection.id });
    }
    return connection;
  }

  write(id: number, bytes: Uint8Array): void {
    this.#sent += 1;
    this.#settle();
    this.#send({ type: 'data', id, seq: this.#sent, bytes });
  }

  /** The thread's V8 heap; the process waits for the answer as it waits for a statement's. */
  async heapStatistics(): Promise<HeapInfo> {
    this.#asking += 1;
    this.#settle();
    try {
      return await this.#worker.getHeapStatistics();
    } finally {
      this.#asking -= 1;
      this.#settle();
    }
  }

  disconnect(id: number): void {
    if (this.#connections.delete(id)) this.#send({ type: 'close', id });
  }

  close(): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    this.#closing = true;
    this.#settle();
    return new Promise((resolve, reject) => {
      this.#onClosed = (reply) => {
        void this.#worker.terminate().then(() => (reply.message ? reject(new Error(reply.message)) : resolve()));
      };
      this.#send({ type: 'shutdown' });
    });
  }

  #send(request: HostRequest): void {
    if (!this.#stopped) this.#worker.postMessage(request);
  }

  #receive(reply: HostReply): void {
    if (reply.type === 'closed') {
      this.#onClosed?.(reply);
      return;
    }
    if (reply.type !== 'data' && reply.type !== 'error') return;
    this.#answered = Math.max(this.#answered, reply.seq);
    this.#settle();
    const connection = this.#connections.get(reply.id);
    if (reply.type === 'data') connection?.receive(reply.bytes);
    else connection?.destroy(new Error(`the embedded database failed: ${reply.message}`));
  }

  /**
   * Keeps the process alive while a write waits for its answer or the database is closing, and only
   * then: a script that is done with the database exits as it did when PGlite ran on its thread, pool
   * open or not.
   */
  #settle(): void {
    if (this.#sent > this.#answered || this.#closing || this.#asking > 0) this.#worker.ref();
    else this.#worker.unref();
  }

  #stop(error: Error): void {
    if (this.#stopped) return;
    this.#stopped = error;
    for (const connection of this.#connections.values()) connection.destroy(error);
    this.#connections.clear();
    this.#onClosed?.({});
  }
}

/**
 * One client connection as the duplex stream node-postgres asks for: what it writes in one turn
 * of the event loop goes to the thread in one message (Parse, Bind, Describe, Execute and Sync of
 * one query), and what the thread answers is read back. It has the few methods of a socket the
 * client calls.
 */
class HostConnection extends Duplex {
  readonly id: number;
  readonly #host: Host;
  #chunks: Buffer[] = [];
  /** The client ended its side (after Terminate): what the host says to that is not read. */
  #ended = false;

  constructor(id: number, host: Host) {
    super();
    this.id = id;
    this.#host = host;
  }

  connect(): this {
    queueMicrotask(() => this.emit('connect'));
    return this;
  }

  setNoDelay(): this {
    return this;
  }

  setKeepAlive(): this {
    return this;
  }

  ref(): this {
    return this;
  }

  unref(): this {
    return this;
  }

  /** The host's answer to this connection's writes. */
  receive(bytes: Uint8Array): void {
    if (bytes.length > 0 && !this.#ended && !this.destroyed)
      this.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
  }

  override _read(): void {}

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    if (this.#chunks.push(chunk) === 1) queueMicrotask(() => this.#flush());
    done();
  }

  override _final(done: (error?: Error | null) => void): void {
    this.#flush();
    // The client said Terminate and ended its side; the database has nothing more to say.
    this.#ended = true;
    this.push(null);
    done();
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    this.#host.disconnect(this.id);
    done(error);
  }

  #flush(): void {
    if (this.#chunks.length === 0) return;
    const bytes = this.#chunks.length === 1 ? (this.#chunks[0] as Buffer) : Buffer.concat(this.#chunks);
    this.#chunks = [];
    this.#host.write(this.id, bytes);
  }
}
