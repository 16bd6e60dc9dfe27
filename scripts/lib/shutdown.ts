import { closeClusterBus } from '../../src/server/cluster/bus.ts';
import { closeDatabase } from '../../src/server/db/client.ts';
import { stopJobRunner } from '../../src/server/tools/runner.ts';

/**
 * On SIGTERM or SIGINT (once): runs `before` (stop serving), hands the jobs this process runs back
 * to the queue for another node (or this one after a restart), closes the bus and the database, and
 * exits.
 */
export function onStopSignal(before: (signal: string) => Promise<void> | void): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    await before(signal);
    await stopJobRunner();
    await closeClusterBus();
    await closeDatabase();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
