import { EventEmitter } from 'node:events';
import pg from 'pg';
import { afterCommit } from '../db/client.ts';
import { env } from '../env.ts';
import { log } from '../log.ts';

// Messages between the processes that share one database: "a job is queued" wakes the job runners,
// "these pages changed" purges every node's caches. On PostgreSQL they travel by LISTEN/NOTIFY on
// one connection per process; with embedded PGlite there is one process, so they stay in memory.
// Every message reaches every listener, the sender's own included.

/** A message handler; `payload` is the text the sender passed. */
export type BusHandler = (payload: string) => void;

/** Messages between the processes of one site. */
export interface Bus {
  notify(channel: string, payload: string): Promise<void>;
  /** Listens on a channel; answers a function that stops listening. */
  listen(channel: string, handler: BusHandler): Promise<() => Promise<void>>;
  /** Called after a lost connection is back: messages sent meanwhile were missed. */
  onReconnect(handler: () => void): void;
  close(): Promise<void>;
}

/** Channel names are SQL identifiers in LISTEN; only these plain ones are used. */
const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

function checkChannel(channel: string): void {
  if (!CHANNEL.test(channel)) throw new Error(`bad bus channel: ${channel}`);
}

/** The bus of a single process (PGlite): an event emitter, delivering after the sender's turn. */
export class LocalBus implements Bus {
  readonly #events = new EventEmitter().setMaxListeners(0);

  async notify(channel: string, payload: string): Promise<void> {
    checkChannel(channel);
    queueMicrotask(() => this.#events.emit(channel, payload));
  }

  async listen(channel: string, handler: BusHandler): Promise<() => Promise<void>> {
    checkChannel(channel);
    this.#events.on(channel, handler);
    return async () => void this.#events.off(channel, handler);
  }

  onReconnect(): void {}

  async close(): Promise<void> {
    this.#events.removeAllListeners();
  }
}

/** How long to wait before connecting again after the listening connection was lost. */
const RECONNECT_MS = 1_000;

/**
 * The bus over PostgreSQL: one client kept open for LISTEN (a pooled connection would drop its
 * listens when handed back), which also sends the NOTIFYs. A lost connection is opened again and
 * its channels listened to again; the reconnect handlers then make up for what was missed.
 */
export class PostgresBus implements Bus {
  readonly #url: string;
  readonly #handlers = new Map<string, Set<BusHandler>>();
  readonly #reconnectHandlers: Array<() => void> = [];
  #client: Promise<pg.Client> | undefined;
  #closed = false;

  constructor(url: string) {
    this.#url = url;
  }

  #connect(): Promise<pg.Client> {
    this.#client ??= (async () => {
      // Kept alive so that a connection dropped silently on the way (a NAT, a proxy) is noticed.
      const client = new pg.Client({ connectionString: this.#url, keepAlive: true });
      client.on('notification', (message) => {
        for (const handler of this.#handlers.get(message.channel) ?? []) handler(message.payload ?? '');
      });
      const lost = (error?: Error) => {
        if (this.#closed || this.#client === undefined) return;
        log().warn({ err: error?.message }, 'database message connection lost; connecting again');
        this.#client = undefined;
        void client.end().catch(() => {});
        setTimeout(() => void this.#relisten(), RECONNECT_MS).unref();
      };
      client.on('error', lost);
      client.on('end', () => lost());
      await client.connect();
      for (const channel of this.#handlers.keys()) await client.query(`LISTEN ${channel}`);
      return client;
    })().catch((error: unknown) => {
      this.#client = undefined;
      throw error;
    });
    return this.#client;
  }

  async #relisten(): Promise<void> {
    if (this.#closed) return;
    try {
      await this.#connect();
      for (const handler of this.#reconnectHandlers) handler();
    } catch (error) {
      log().warn({ err: (error as Error).message }, 'database message connection failed; trying again');
      setTimeout(() => void this.#relisten(), RECONNECT_MS).unref();
    }
  }

  async notify(channel: string, payload: string): Promise<void> {
    checkChannel(channel);
    // Sent on a connection of its own: a message about a write still in its transaction waits for
    // the commit, or another node would look for the row before it can see it.
    await afterCommit(async () => {
      await (await this.#connect()).query('select pg_notify($1, $2)', [channel, payload]);
    });
  }

  async listen(channel: string, handler: BusHandler): Promise<() => Promise<void>> {
    checkChannel(channel);
    const handlers = this.#handlers.get(channel) ?? new Set<BusHandler>();
    const first = handlers.size === 0;
    handlers.add(handler);
    this.#handlers.set(channel, handlers);
    const client = await this.#connect();
    if (first) await client.query(`LISTEN ${channel}`);
    return async () => {
      handlers.delete(handler);
      if (handlers.size > 0 || this.#closed) return;
      this.#handlers.delete(channel);
      await (await this.#connect()).query(`UNLISTEN ${channel}`);
    };
  }

  onReconnect(handler: () => void): void {
    this.#reconnectHandlers.push(handler);
  }

  async close(): Promise<void> {
    this.#closed = true;
    const client = this.#client;
    this.#client = undefined;
    if (client) await (await client).end();
  }
}

// On globalThis like the database: the page bundle and the scripts load this module apart.
const SLOT = Symbol.for('font-alliance.bus');
type Slot = { [SLOT]?: Bus };

/** The process-wide bus: over PostgreSQL when DATABASE_URL is set, in memory otherwise. */
export function clusterBus(): Bus {
  const slot = globalThis as Slot;
  if (!slot[SLOT]) {
    const url = env().DATABASE_URL;
    slot[SLOT] = url ? new PostgresBus(url) : new LocalBus();
  }
  return slot[SLOT];
}

/** Closes the process-wide bus (shutdown and tests). */
export async function closeClusterBus(): Promise<void> {
  const slot = globalThis as Slot;
  const bus = slot[SLOT];
  delete slot[SLOT];
  await bus?.close();
}
