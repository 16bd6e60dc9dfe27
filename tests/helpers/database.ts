import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { SQL } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { type Database, type Db, MIGRATIONS_DIR, openDatabase } from '../../src/server/db/client.ts';
import type { fontFamilies, fonts } from '../../src/server/db/schema/index.ts';

/**
 * The PostgreSQL server the database tests run against, or undefined for embedded PGlite.
 * CI sets it so that the same tests cover both engines; each suite gets a database of its own.
 */
export const TEST_DATABASE_URL: string | undefined = process.env['TEST_DATABASE_URL'] || undefined;

/** Where a test database lives and how to get rid of it. */
export interface TestDatabaseTarget {
  /** The options to pass to openDatabase; open them as often as a test needs. */
  options: { url?: string; dir: string; loadDataDir?: Blob };
  /** Removes the database (PostgreSQL) or its folder (PGlite). */
  drop(): Promise<void>;
}

/** A migrated database for one suite, removed again by `close()`. */
export interface TestDatabase extends Database {
  target: TestDatabaseTarget;
}

/**
 * A PGlite data folder with every committed migration applied, made once per machine and kept in
 * the temporary folder under a name that changes with the migrations and PGlite's version. Each
 * suite starts its in-memory database from it instead of running initdb and the migrations again.
 */
async function migratedTemplate(): Promise<Blob> {
  const pglite = fs.readFileSync(path.join(process.cwd(), 'node_modules/@electric-sql/pglite/package.json'));
  const files = fs.readdirSync(MIGRATIONS_DIR, { recursive: true, encoding: 'utf8' }).sort();
  const hash = createHash('sha256').update(pglite);
  for (const file of files) {
    const full = path.join(MIGRATIONS_DIR, file);
    if (fs.statSync(full).isFile()) hash.update(file).update(fs.readFileSync(full));
  }
  const saved = path.join(os.tmpdir(), `font-alliance-pglite-${hash.digest('hex').slice(0, 16)}.tar`);
  if (!fs.existsSync(saved)) {
    const client = new PGlite();
    await migratePglite(drizzlePglite({ client }), { migrationsFolder: MIGRATIONS_DIR });
    const dump = await client.dumpDataDir('none');
    await client.close();
    // Written whole, then renamed: a suite starting beside this one never reads half a file.
    const partial = `${saved}.${process.pid}.partial`;
    fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(partial, saved);
  }
  return new Blob([fs.readFileSync(saved)]);
}

function uniqueName(): string {
  return `test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
}

async function withAdminClient<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/**
 * Creates an empty place for a database. On PostgreSQL that is a fresh, uniquely named database
 * on the TEST_DATABASE_URL server; on PGlite it is memory, or a temporary folder when `onDisk`
 * is set (for tests that close and reopen it).
 */
export async function createTestDatabaseTarget(opts: { onDisk?: boolean } = {}): Promise<TestDatabaseTarget> {
  if (TEST_DATABASE_URL) {
    const name = uniqueName();
    await withAdminClient((client) => client.query(`CREATE DATABASE "${name}"`));
    const url = new URL(TEST_DATABASE_URL);
    url.pathname = `/${name}`;
    return {
      options: { url: url.toString(), dir: '' },
      drop: () =>
        withAdminClient(async (client) => void (await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`))),
    };
  }
  if (!opts.onDisk)
    return { options: { dir: 'memory://', loadDataDir: await migratedTemplate() }, drop: async () => {} };
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'font-alliance-db-'));
  return {
    options: { dir: path.join(root, 'db') },
    drop: async () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

/** Opens a fresh, migrated database for a suite; `close()` also removes it. */
export async function openTestDatabase(): Promise<TestDatabase> {
  const target = await createTestDatabaseTarget();
  let database: Database;
  try {
    database = await openDatabase(target.options);
  } catch (error) {
    await target.drop();
    throw error;
  }
  return {
    ...database,
    target,
    close: async () => {
      try {
        await database.close();
      } finally {
        await target.drop();
      }
    },
  };
}

/**
 * The SQLSTATE of the PostgreSQL error a promise rejects with (e.g. '23505' for a unique
 * violation), looking through Drizzle's wrapping; fails when the promise resolves.
 */
export async function sqlStateOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (error) {
    for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
      const code = (current as { code?: unknown }).code;
      if (typeof code === 'string') return code;
    }
    throw error;
  }
  throw new Error('Expected the query to fail, but it succeeded.');
}

/** Runs raw SQL and returns its rows, whichever driver is underneath (both answer `{ rows }`). */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** Insert values for a font family with every required column filled; `gno` names it. */
export function familyValues(gno: string): typeof fontFamilies.$inferInsert {
  return {
    gno,
    nameZh: gno,
    nameEn: gno,
    category: '1',
    script: '1',
    license: 'OFL-1.1',
    licenseText: 'SIL Open Font License 1.1',
  };
}

/** Insert values for a child font of a family with every required column filled. */
export function fontValues(familyId: number, gno: string): typeof fonts.$inferInsert {
  return {
    familyId,
    gno,
    fullName: gno,
    styleName: 'Regular',
    postscriptName: gno,
    weight: 400,
    fileKey: `fonts/${gno}.ttf`,
    fileSize: 1,
    sha256: '0'.repeat(64),
  };
}
