import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { getTableName, is, sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import * as tar from 'tar';
import type { Db } from '../db/client.ts';
import * as schema from '../db/schema/index.ts';

// A site's backup in one archive, and its restore: every table of the database as JSON (the same
// for PGlite and PostgreSQL, read in one repeatable-read snapshot, so a running PostgreSQL site is
// backed up consistently), the stored files that cannot be made again (fonts, covers, avatars,
// submissions, signed agreements: not the temporary tools area nor the subsets, which are derived),
// and the secrets that signed what users hold (download links, upload tickets). Restore applies
// the committed migrations to an empty database, writes the rows back in foreign-key order and
// moves each id sequence past the highest id, so new rows never collide with restored ones.

/** What the archive says about itself. */
export interface BackupManifest {
  format: 1;
  createdAt: string;
  /** Rows per table. */
  tables: Record<string, number>;
  files: number;
}

type AnyTable = PgTable;

/** Every table of the schema, parents before the tables that refer to them. */
export function tablesInOrder(): AnyTable[] {
  const tables = (Object.values(schema) as unknown[]).filter((value): value is AnyTable => is(value, PgTable));
  const byName = new Map(tables.map((table) => [getTableName(table), table]));
  const ordered: AnyTable[] = [];
  const visiting = new Set<string>();
  const visit = (table: AnyTable) => {
    const name = getTableName(table);
    if (ordered.includes(table) || visiting.has(name)) return;
    visiting.add(name);
    for (const key of getTableConfig(table).foreignKeys) {
      const parent = byName.get(getTableName(key.reference().foreignTable));
      if (parent && parent !== table) visit(parent);
    }
    ordered.push(table);
  };
  for (const table of tables) visit(table);
  return ordered;
}

/** Folders of storage that are not backed up: temporary tool files and subsets made again on demand. */
const SKIPPED_STORAGE = ['tools', 'subsets'];

async function copyTree(from: string, to: string, skip: readonly string[] = []): Promise<number> {
  if (!fs.existsSync(from)) return 0;
  let count = 0;
  for (const entry of await fsp.readdir(from, { withFileTypes: true })) {
    if (skip.includes(entry.name) || entry.name.startsWith('.')) continue;
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) count += await copyTree(source, target);
    else if (entry.isFile()) {
      await fsp.mkdir(to, { recursive: true });
      await fsp.copyFile(source, target);
      count++;
    }
  }
  return count;
}

/**
 * Writes the backup of the database `db` and the data folder `dataDir` to `file` (a .tar.gz);
 * answers its manifest.
 */
export async function backupTo(db: Db, dataDir: string, file: string): Promise<BackupManifest> {
  const work = await fsp.mkdtemp(path.join(os.tmpdir(), 'font-alliance-backup-'));
  try {
    const tables: Record<string, number> = {};
    await fsp.mkdir(path.join(work, 'database'));
    await db.transaction(
      async (tx) => {
        for (const table of tablesInOrder()) {
          const rows = await tx.select().from(table);
          tables[getTableName(table)] = rows.length;
          await fsp.writeFile(path.join(work, 'database', `${getTableName(table)}.json`), JSON.stringify(rows));
        }
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
    const files = await copyTree(path.join(dataDir, 'storage'), path.join(work, 'storage'), SKIPPED_STORAGE);
    await copyTree(path.join(dataDir, 'secrets'), path.join(work, 'secrets'));
    const manifest: BackupManifest = { format: 1, createdAt: new Date().toISOString(), tables, files };
    await fsp.writeFile(path.join(work, 'manifest.json'), JSON.stringify(manifest, null, 2));
    await fsp.mkdir(path.dirname(path.resolve(file)), { recursive: true });
    const entries = (await fsp.readdir(work)).sort();
    // Written beside its final name and renamed, so a cut-off backup never looks complete. It holds
    // password and session hashes and the signing secrets, so only its owner may read it (0600, set
    // when the file is created, whatever the umask, so it is never readable by others even briefly).
    const partial = `${file}.partial`;
    await fsp.rm(partial, { force: true });
    await pipeline(
      tar.create({ gzip: true, cwd: work, portable: true }, entries),
      fs.createWriteStream(partial, { mode: 0o600, flags: 'wx' }),
    );
    await fsp.chmod(partial, 0o600);
    await fsp.rename(partial, file);
    return manifest;
  } finally {
    await fsp.rm(work, { recursive: true, force: true });
  }
}

/** Thrown when a restore cannot go ahead; the message says why. */
export class RestoreError extends Error {
  override name = 'RestoreError';
}

/** Turns the JSON of a row back into values for its table (timestamps were written as text). */
function revive(table: AnyTable, row: Record<string, unknown>): Record<string, unknown> {
  const columns = getTableConfig(table).columns;
  const out: Record<string, unknown> = { ...row };
  for (const column of columns) {
    const key = Object.entries(table).find(([, value]) => value === column)?.[0];
    if (!key || out[key] === null || out[key] === undefined) continue;
    if (column.columnType === 'PgTimestamp' || column.columnType === 'PgDate') out[key] = new Date(out[key] as string);
  }
  return out;
}

/**
 * Restores a backup into the (migrated, empty) database `db` and the data folder `dataDir`. Refuses
 * a database that already holds accounts unless `force`, so a restore never mixes two sites.
 */
export async function restoreFrom(db: Db, dataDir: string, file: string, force = false): Promise<BackupManifest> {
  if (!fs.existsSync(file)) throw new RestoreError(`No backup at ${file}`);
  const work = await fsp.mkdtemp(path.join(os.tmpdir(), 'font-alliance-restore-'));
  try {
    await tar.extract({ file, cwd: work, strict: true });
    const manifest = JSON.parse(await fsp.readFile(path.join(work, 'manifest.json'), 'utf8')) as BackupManifest;
    if (manifest.format !== 1) throw new RestoreError(`Unknown backup format ${manifest.format}`);
    const [{ n } = { n: 0 }] = await db.select({ n: sql<number>`count(*)::int` }).from(schema.accounts);
    if (n > 0 && !force) {
      throw new RestoreError(
        'The database already holds accounts; restore into an empty site, or pass --force to replace it',
      );
    }
    const ordered = tablesInOrder();
    await db.transaction(async (tx) => {
      const names = ordered.map((table) => `"${getTableName(table)}"`).join(', ');
      await tx.execute(sql.raw(`truncate ${names} restart identity cascade`));
      for (const table of ordered) {
        const name = getTableName(table);
        const source = path.join(work, 'database', `${name}.json`);
        if (!fs.existsSync(source)) continue;
        const rows = (JSON.parse(await fsp.readFile(source, 'utf8')) as Array<Record<string, unknown>>).map((row) =>
          revive(table, row),
        );
        for (let i = 0; i < rows.length; i += 500) await tx.insert(table).values(rows.slice(i, i + 500));
        const serial = getTableConfig(table).columns.find((column) => column.columnType === 'PgSerial');
        if (serial && rows.length > 0) {
          await tx.execute(
            sql.raw(
              `select setval(pg_get_serial_sequence('"${name}"', '${serial.name}'), (select max("${serial.name}") from "${name}"))`,
            ),
          );
        }
      }
    });
    await copyTree(path.join(work, 'storage'), path.join(dataDir, 'storage'));
    await copyTree(path.join(work, 'secrets'), path.join(dataDir, 'secrets'));
    return manifest;
  } finally {
    await fsp.rm(work, { recursive: true, force: true });
  }
}
