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
