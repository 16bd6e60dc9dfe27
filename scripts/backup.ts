// Backs the site up into one archive, or restores one: npm run backup -- [file], npm run restore -- <file>.
import fs from 'node:fs';
import path from 'node:path';
import { backupTo, RestoreError, restoreFrom } from '../src/server/backup/archive.ts';
import { db } from '../src/server/db/client.ts';
import { env } from '../src/server/env.ts';
import { runCommand } from './lib/command.ts';

if (fs.existsSync('.env')) process.loadEnvFile('.env');

const USAGE = `Usage:
  npm run backup -- [file]              writes the database, stored files and secrets to one .tar.gz
                                        (default: backups/site-<date>.tar.gz)
  npm run restore -- <file> [--force]   restores a backup into this DATA_DIR / DATABASE_URL;
                                        --force replaces a database that already holds accounts

With the embedded database (no DATABASE_URL), stop the server first: one process at a time may open it.
Against PostgreSQL the backup runs beside a live site, from one consistent snapshot.`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const config = env();
  if (command === 'backup') {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const file = rest[0] ?? path.join('backups', `site-${stamp}.tar.gz`);
    const manifest = await backupTo(await db(), config.dataDir, file);
    const rows = Object.values(manifest.tables).reduce((sum, n) => sum + n, 0);
    console.log(
      `Backed up ${rows} rows in ${Object.keys(manifest.tables).length} tables and ${manifest.files} files to ${file}`,
    );
    return 0;
  }
  if (command === 'restore' && rest[0]) {
    const manifest = await restoreFrom(await db(), config.dataDir, rest[0], rest.includes('--force'));
    console.log(
      `Restored the backup of ${manifest.createdAt}: ${manifest.files} files, ${Object.keys(manifest.tables).length} tables`,
    );
    return 0;
  }
  console.error(USAGE);
  return 2;
}

await runCommand(main, [RestoreError]);
