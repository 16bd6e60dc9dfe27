import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { is, sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { afterEach, describe, expect, test } from 'vitest';
import { MIGRATIONS_DIR, openDatabase } from '../../src/server/db/client.ts';
import * as schema from '../../src/server/db/schema/index.ts';
import {
  createTestDatabaseTarget,
  queryRows,
  TEST_DATABASE_URL,
  type TestDatabaseTarget,
} from '../helpers/database.ts';

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

  test('moves albums, collections and every favourite into the shared tables, keeping their numbers', async () => {
    target = await createTestDatabaseTarget({ onDisk: true });
    // The migrations as they stood before albums and collections shared one table.
    const before = fs.mkdtempSync(path.join(os.tmpdir(), 'migrations-before-'));
    const entries = (journal.entries as Array<{ tag: string }>).filter((entry) => entry.tag < '0002');
    fs.mkdirSync(path.join(before, 'meta'));
    fs.writeFileSync(path.join(before, 'meta/_journal.json'), JSON.stringify({ ...journal, entries }));
    for (const entry of entries)
      fs.copyFileSync(path.join(MIGRATIONS_DIR, `${entry.tag}.sql`), path.join(before, `${entry.tag}.sql`));

    const old = await openDatabase({ ...target.options, migrationsFolder: before });
    try {
      await old.db.execute(sql`insert into accounts (id, email) values (1, 'a@example.com')`);
      await old.db.execute(sql`insert into font_families (id, gno, name_zh, name_en, category, script, license, license_text)
        values (1, 'noto-sans-sc', '思源黑体', 'Noto Sans SC', '黑体', '简体', 'OFL-1.1', 'OFL')`);
      await old.db.execute(sql`insert into articles (id, kind, title) values (5, 'news', '新闻')`);
      await old.db.execute(
        sql`insert into albums (id, title, status) values (1, '黑体专辑', 'published'), (2, '草稿', 'draft')`,
      );
      await old.db.execute(sql`insert into collections (id, title, status) values (1, '书法合集', 'published')`);
      await old.db.execute(sql`insert into album_fonts (album_id, family_id, sort) values (1, 1, 0)`);
      await old.db.execute(sql`insert into collection_fonts (collection_id, family_id, sort) values (1, 1, 3)`);
      await old.db.execute(sql`insert into favorite_fonts (account_id, family_id) values (1, 1)`);
      await old.db.execute(sql`insert into favorite_albums (account_id, album_id) values (1, 1)`);
      await old.db.execute(sql`insert into favorite_articles (account_id, article_id) values (1, 5)`);
    } finally {
      await old.close();
      fs.rmSync(before, { recursive: true, force: true });
    }

    const migrated = await openDatabase(target.options);
    try {
      const groups = await migrated.db
        .select()
        .from(schema.fontGroups)
        .orderBy(schema.fontGroups.kind, schema.fontGroups.id);
      expect(groups.map((row) => [row.kind, row.id, row.title, row.status])).toEqual([
        ['album', 1, '黑体专辑', 'published'],
        ['album', 2, '草稿', 'draft'],
        ['heji', 1, '书法合集', 'published'],
      ]);
      const members = await migrated.db.select().from(schema.fontGroupFonts).orderBy(schema.fontGroupFonts.kind);
      expect(members.map((row) => [row.kind, row.groupId, row.familyId, row.sort])).toEqual([
        ['album', 1, 1, 0],
        ['heji', 1, 1, 3],
      ]);
      const kept = await migrated.db.select().from(schema.favorites).orderBy(schema.favorites.target);
      expect(kept.map((row) => [row.target, row.familyId, row.groupKind, row.groupId, row.articleId])).toEqual([
        ['article', null, null, null, 5],
        ['font', 1, null, null, null],
        ['group', null, 'album', 1, null],
      ]);
      // New items are numbered past every number either kind had.
      const [next] = await migrated.db.insert(schema.fontGroups).values({ kind: 'heji', title: '新合集' }).returning();
      expect(next?.id).toBe(3);
      const tables = await queryRows<{ table_name: string }>(
        migrated.db,
        sql`select table_name from information_schema.tables where table_name in ('albums', 'collections', 'favorite_fonts')`,
      );
      expect(tables).toEqual([]);
    } finally {
      await migrated.close();
    }
  });

  // PGlite needs no such test: its folder belongs to one process, which its lock file enforces.
  test.skipIf(!TEST_DATABASE_URL)(
    'several servers starting at once over one new database migrate it once',
    async () => {
      const shared = await createTestDatabaseTarget();
      target = shared;
      const nodes = await Promise.all([1, 2, 3].map(() => openDatabase(shared.options)));
      try {
        for (const node of nodes) {
          const applied = await queryRows<{ count: string | number }>(
            node.db,
            sql`select count(*) as count from drizzle.__drizzle_migrations`,
          );
          expect(Number(applied[0]?.count)).toBe(journal.entries.length);
        }
      } finally {
        await Promise.all(nodes.map((node) => node.close()));
      }
    },
  );

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
