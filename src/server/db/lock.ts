import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Thrown when another live process already holds the database folder. */
export class DatabaseLockedError extends Error {
  override name = 'DatabaseLockedError';
}

interface Holder {
  pid: number;
  host: string;
}

function readHolder(file: string): Holder | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Holder;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A holder is stale when its process is gone (after kill -9 or a crash). */
function isStale(holder: Holder | undefined): boolean {
  if (!holder || holder.host !== os.hostname()) return holder === undefined;
  // After a restart inside a container the new process can get the dead one's pid.
  return holder.pid === process.pid || !isAlive(holder.pid);
}

/**
 * Takes an exclusive lock on a PGlite data folder. PGlite has no lock of its own and two processes
 * on one folder corrupt it, so a second opener fails at once with a message that names the holder.
 * A lock left by a process that died is taken over. Returns the function that releases the lock.
 */
export function acquireDirLock(dir: string): () => void {
  const file = path.join(dir, '..', `${path.basename(dir)}.lock`);
  const me: Holder = { pid: process.pid, host: os.hostname() };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(file, JSON.stringify(me), { flag: 'wx' });
      let released = false;
      return () => {
        if (released) return;
        released = true;
        if (readHolder(file)?.pid === me.pid) fs.rmSync(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readHolder(file);
      if (!isStale(holder)) {
        throw new DatabaseLockedError(
          `The database folder ${dir} is in use by process ${holder?.pid} on ${holder?.host}. ` +
            'Stop that process first, or set DATA_DIR to another folder or DATABASE_URL to a PostgreSQL server.',
        );
      }
      // Move the stale lock aside atomically so that two starters cannot both remove a fresh one.
      try {
        fs.renameSync(file, `${file}.stale-${process.pid}`);
        fs.rmSync(`${file}.stale-${process.pid}`, { force: true });
      } catch {
        // Another starter moved it first; try again.
      }
    }
  }
  throw new DatabaseLockedError(`Could not lock the database folder ${dir}; another process keeps taking it.`);
}

/** A lock held across every process of the site until released (or until its process dies). */
export interface SiteLock {
  release(): Promise<void>;
}

/**
 * Named locks shared by every node of one site, for start-up work that writes shared state
 * (migrations, seeding, sweeps): one node does it while the others wait or skip.
 */
export interface SiteLocks {
  /** Waits until the lock named `name` is free and takes it. */
  acquire(name: string): Promise<SiteLock>;
  /** Takes the lock if it is free; answers undefined at once if another holds it. */
  tryAcquire(name: string): Promise<SiteLock | undefined>;
}

/** Runs `work` holding the lock `name`, waiting for it first. */
export async function withSiteLock<T>(locks: SiteLocks, name: string, work: () => Promise<T>): Promise<T> {
  const lock = await locks.acquire(name);
  try {
    return await work();
  } finally {
    await lock.release();
  }
}

/** One connection of a pool, as node-postgres's PoolClient offers it. */
interface LockConnection {
  query(text: string, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
  release(destroy?: boolean): void;
}

/**
 * PostgreSQL session advisory locks, each held on a connection of its own: the server frees it when
 * that connection ends, so a node killed while it holds one hands it on at once (a node cut off by the
 * network, once its connection times out).
 */
export function postgresSiteLocks(connect: () => Promise<LockConnection>): SiteLocks {
  const sql = (verb: string) => `select ${verb}(hashtext('font-alliance ' || $1)) as taken`;
  const held = (connection: LockConnection, name: string): SiteLock => {
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        try {
          await connection.query(sql('pg_advisory_unlock'), [name]);
          connection.release();
        } catch {
          // A connection that failed loses its locks with it; it is not put back in the pool.
          connection.release(true);
        }
      },
    };
  };
  return {
    acquire: async (name) => {
      const connection = await connect();
      try {
        await connection.query(sql('pg_advisory_lock'), [name]);
      } catch (error) {
        connection.release(true);
        throw error;
      }
      return held(connection, name);
    },
    tryAcquire: async (name) => {
      const connection = await connect();
      let taken = false;
      try {
        taken = (await connection.query(sql('pg_try_advisory_lock'), [name])).rows[0]?.['taken'] === true;
      } catch (error) {
        connection.release(true);
        throw error;
      }
      if (taken) return held(connection, name);
      connection.release();
      return undefined;
    },
  };
}

/** The locks of a site that one process serves (embedded PGlite): held in memory. */
export function processSiteLocks(): SiteLocks {
  const queues = new Map<string, Promise<void>>();
  const holders = new Set<string>();
  const take = (name: string): SiteLock => {
    holders.add(name);
    let free!: () => void;
    const freed = new Promise<void>((resolve) => {
      free = resolve;
    });
    queues.set(name, freed);
    return {
      release: async () => {
        if (!holders.delete(name)) return;
        if (queues.get(name) === freed) queues.delete(name);
        free();
      },
    };
  };
  return {
    acquire: async (name) => {
      while (holders.has(name)) await queues.get(name);
      return take(name);
    },
    tryAcquire: async (name) => (holders.has(name) ? undefined : take(name)),
  };
}
