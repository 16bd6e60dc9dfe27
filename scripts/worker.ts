// Runs tool jobs only, without serving any page or API: a worker node beside web nodes that set
// TOOLS_RUN_JOBS=false. It claims queued jobs from the shared database (DATABASE_URL) and reads and
// writes fonts in the shared storage (STORAGE_URL); `npm run worker` runs it on the pinned Node 24.
import fs from 'node:fs';
import path from 'node:path';
import { closeDatabase, database } from '../src/server/db/client.ts';
import { EnvError, env } from '../src/server/env.ts';
import { PROJECT_ROOT } from '../src/server/paths.ts';
import { startJobRunner, stopJobRunner } from '../src/server/tools/runner.ts';
import { closeToolsPool, toolsJobWorkers } from '../src/server/tools/runtime.ts';
import { startToolsSweeper, stopToolsSweeper } from '../src/server/tools/sweeper.ts';
import { onStopSignal } from './lib/shutdown.ts';

const dotenv = path.join(PROJECT_ROOT, '.env');
if (fs.existsSync(dotenv)) process.loadEnvFile(dotenv);

async function main(): Promise<void> {
  const config = env();
  const opened = await database();
  if (opened.kind === 'pglite') {
    console.log(
      'Database: embedded PGlite; a worker shares it with no other process, so set DATABASE_URL to run beside web nodes',
    );
  }
  startToolsSweeper();
  startJobRunner();
  keepHealthFile(path.join(config.dataDir, 'worker.alive'), () => opened.ping());
  console.log(
    `Tool job worker is running ${toolsJobWorkers()} job(s) at a time (storage: ${config.STORAGE_URL ? 'bucket' : 'local files'})`,
  );

  onStopSignal(async (signal) => {
    console.log(`Received ${signal}, handing running jobs back to the queue…`);
    stopToolsSweeper();
    await stopJobRunner();
    await closeToolsPool();
  });
}

/**
 * Touches `file` every 10 s while `check` passes (the database answers): a container's healthcheck
 * reads its age, since a worker has no HTTP port to ask (docker-compose.yml).
 */
function keepHealthFile(file: string, check: () => Promise<void>): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const touch = () =>
    void check().then(
      () => fs.writeFileSync(file, new Date().toISOString()),
      () => undefined,
    );
  touch();
  setInterval(touch, 10_000).unref();
}

main().catch(async (error: unknown) => {
  console.error(error instanceof EnvError ? error.message : error);
  await closeDatabase().catch(() => {});
  process.exit(1);
});
