import fs from 'node:fs';
import path from 'node:path';
import { is, sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { afterEach, describe, expect, test } from 'vitest';
import { MIGRATIONS_DIR, openDatabase } from '../../src/server/db/client.ts';
import * as schema from '../../src/server/db/schema/index.ts';
import { createTestDatabaseTarget, queryRows, type TestDatabaseTarget } from '../helpers/database.ts';

const schemaTables = (Object.values(schema) as unknown[])
  .filter((value): value is PgTable => is(value, PgTable))
  .map((table) => getTableConfig(table).name)
  .sort();

const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as {
  entries: unknown[];
};

describe('openDatabase migrations', () => {
  let target: TestDatabaseTarget | undefined;
  afterEach(async () => {
    await target?.drop();
    target = undefined;
  });

  test('creates every table the schema declares', async () => {
    target = await createTestDatabaseTarget();
    const database = await openDatabase(target.options);
    try {
      const rows = await queryRows<{ table_name: string }>(
        database.db,
        sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
      );
      expect(schemaTables.length).toBeGreaterThan(25);
      expect(rows.map((row) => row.table_name).sort()).toEqual(schemaTables);
    } finally {
      await database.close();
    }
  });

  test('applies each migration once and keeps the data when the database is opened again', async () => {
    target = await createTestDatabaseTarget({ onDisk: true });
    const first = await openDatabase(target.options);
    try {
      await first.db.insert(schema.keywords).values({ word: '楷书', weight: 3 });
    } finally {
      await first.close();
    }

    const second = await openDatabase(target.options);
    try {
      const keywords = await second.db.select().from(schema.keywords);
      expect(keywords.map((row) => row.word)).toEqual(['楷书']);
      const applied = await queryRows<{ count: string | number }>(
        second.db,
        sql`select count(*) as count from drizzle.__drizzle_migrations`,
      );
      expect(Number(applied[0]?.count)).toBe(journal.entries.length);
    } finally {
      await second.close();
    }
  });

  test('answers ping once open', async () => {
    target = await createTestDatabaseTarget();
    const database = await openDatabase(target.options);
    try {
      await expect(database.ping()).resolves.toBeUndefined();
    } finally {
      await database.close();
    }
  });
});
